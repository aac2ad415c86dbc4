"""Runs every test_*.py here with unittest and closes with "N passed, M failed".

A skipped test counts as failed: jupyter_kernel_test skips the checks whose
sample attribute is unset, and every one of them must run.
"""
import argparse
import sys
import unittest


class CountingResult(unittest.TextTestResult):
    """Counts tests (not subtests): a test passes when neither it nor any of
    its subtests failed, errored or was skipped."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.passed = 0
        self.failed = 0
        self._bad = False

    def startTest(self, test):
        self._bad = False
        super().startTest(test)

    def addSubTest(self, test, subtest, outcome):
        super().addSubTest(test, subtest, outcome)
        if outcome is not None:
            self._bad = True

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._bad = True

    def addError(self, test, err):
        super().addError(test, err)
        self._bad = True

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._bad = True

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._bad = True

    def stopTest(self, test):
        super().stopTest(test)
        if self._bad:
            self.failed += 1
        else:
            self.passed += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-k", dest="pattern", action="append", help="only tests whose name contains this")
    args = ap.parse_args()
    loader = unittest.TestLoader()
    if args.pattern:
        loader.testNamePatterns = ["*%s*" % p for p in args.pattern]
    suite = loader.discover(".", pattern="test_*.py")
    runner = unittest.TextTestRunner(verbosity=2, resultclass=CountingResult, stream=sys.stdout)
    result = runner.run(suite)
    # Errors in setUpClass/module import are reported without a test.
    failed = result.failed + sum(1 for t, _ in result.errors if not isinstance(t, unittest.TestCase))
    for test, reason in result.skipped:
        print("SKIPPED (counted as failed): %s: %s" % (test, reason))
    print("%d passed, %d failed" % (result.passed, failed))
    return 0 if failed == 0 and result.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
