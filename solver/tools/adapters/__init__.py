"""Adapters that put other Python adjudicators behind the cross-check protocol."""
