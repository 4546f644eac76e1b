"""dipsat: orders, positions and CP-SAT adjudication of Diplomacy turns."""
