"""Where the tests find the kernel: run.sh installs it into a temporary
prefix and exports these variables."""
import os
import sys

ROOT = os.environ.get("GOBAYES_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("GOBAYES_BIN") or os.path.join(ROOT, "bin", "gobayes")
KERNEL = "gobayes"

if "JUPYTER_PATH" not in os.environ:
    sys.exit("tests/jupyter: run these tests through tests/jupyter/run.sh (it installs the kernelspec)")
