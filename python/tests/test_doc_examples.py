"""The examples in the docstrings run as written."""

import doctest

import pytest

import dakon
import dakon.openspiel
import dakon.pettingzoo

NATIVE = [dakon.Position, dakon.Position.parse, dakon.Position.start, dakon.solve, dakon.best, dakon._dakon.probe_table]


@pytest.mark.parametrize("module", [dakon, dakon.tables, dakon.certificates, dakon.openspiel, dakon.learning, dakon.arrays, dakon.pettingzoo])
def test_module_examples(module) -> None:
    failed, attempted = doctest.testmod(module, extraglobs={"dakon": dakon}, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0 and failed == 0


@pytest.mark.parametrize("obj", NATIVE, ids=lambda o: o.__name__)
def test_native_examples(obj) -> None:
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    test = parser.get_doctest(obj.__doc__ or "", {"dakon": dakon}, obj.__name__, None, 0)
    assert test.examples, f"{obj.__name__} has no example"
    runner.run(test)
    assert runner.failures == 0
