"""The typed vocabulary: every reason's sentence reads back to its code, so saved games,
which keep the sentence, give back the same value."""

from __future__ import annotations

import pytest
from conftest import all_cases

from solver.errors import DipsatError
from solver.exploring.conformance import run_case
from solver.values.outcomes import Illegal, Illegality, Invalid, Invalidity


@pytest.mark.parametrize("code", [*Illegality, *Invalidity], ids=str)
def test_each_sentence_reads_back_to_its_code(code):
    kind = Illegal if isinstance(code, Illegality) else Invalid
    names = ["A Munich", "Tyrolia(nc)", "Fall 1901 movement"][: code.template.count("{}")]
    reason = kind.because(code, *names)
    assert kind.read(reason.why) == reason


def test_every_reason_the_cases_give_reads_back():
    seen = set()
    for case in all_cases():
        resolution = run_case(case).resolution
        for outcome in resolution.outcomes if resolution is not None else ():
            reason = outcome.reason
            if isinstance(reason, Illegal | Invalid):
                assert type(reason).read(reason.why) == reason, reason
                seen.add(reason.code)
    assert len(seen) >= 12  # the cases exercise most of them


def test_a_sentence_dipsat_does_not_write_is_refused():
    with pytest.raises(DipsatError, match="no Illegality reads"):
        Illegal.read("the moon is made of cheese")
