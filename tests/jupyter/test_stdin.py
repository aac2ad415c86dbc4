"""Standard input of a cell (protocol 5.3's stdin channel), through
jupyter_client: a cell that reads os.Stdin or calls fmt.Scan* sends an
input_request when the execute_request allowed stdin, and reads the line of
the client's input_reply; without allow_stdin the read fails at once with a
message that says why; an interrupt while the cell waits stops it and keeps
the session. jupyter console, which answers input_request from its own
standard input, is driven at the end."""
import subprocess
import time
import unittest
from queue import Empty

from kernel_client import KernelCase, TIMEOUT
from test_console import console_cmd


class Stdin(KernelCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.kc.execute('import "fmt"')
        cls.kc.get_shell_msg(timeout=TIMEOUT)

    def input_request(self, msg_id):
        """The next input_request, checked against the protocol and the
        execute request it belongs to."""
        m = self.kc.get_stdin_msg(timeout=TIMEOUT)
        # Not jupyter_kernel_test's validate_message: its schema types
        # password as a number, where the messaging spec (and ipykernel)
        # has a bool.
        self.assertEqual(m["msg_type"], "input_request", m)
        self.assertEqual(m["header"]["version"], "5.3", m)
        self.assertEqual(m["parent_header"].get("msg_id"), msg_id, "the input_request's parent is the execute_request")
        self.assertEqual(set(m["content"]), {"prompt", "password"}, m)
        self.assertIsInstance(m["content"]["prompt"], str)
        self.assertIsInstance(m["content"]["password"], bool)
        return m["content"]

    def test_scanln_shows_the_prompt_and_reads_the_line(self):
        msg_id = self.send('var name string\nfmt.Print("your name? ")\nfmt.Scanln(&name)\nfmt.Println("hello", name)',
                           allow_stdin=True)
        req = self.input_request(msg_id)
        self.assertEqual(req["prompt"], "your name? ", "the unfinished line printed before the read is the prompt")
        self.assertFalse(req["password"])
        self.kc.input("Ada Lovelace")
        cell = self.collect(msg_id)
        self.assertOK(cell)
        # Scanln reads one word per argument: "Ada", then an error for the rest.
        self.assertEqual(cell.stdout(), "hello Ada\n", cell)

    def test_several_lines_through_bufio(self):
        msg_id = self.send('import (\n\t"bufio"\n\t"os"\n)\nsc := bufio.NewScanner(os.Stdin)\ntotal := 0\n'
                           'for i := 0; i < 3 && sc.Scan(); i++ {\n\ttotal += len(sc.Text())\n}\ntotal', allow_stdin=True)
        for line in ["one", "three", "sixteen"]:
            req = self.input_request(msg_id)
            self.assertEqual(req["prompt"], "")
            self.kc.input(line)
        cell = self.collect(msg_id)
        self.assertOK(cell)
        self.assertEqual(cell.result(), str(len("one") + len("three") + len("sixteen")), cell)

    def test_without_allow_stdin_the_read_fails_at_once(self):
        cell = self.run_cell('var word string\n_, err := fmt.Scanln(&word)\nfmt.Println("read:", err)',
                             allow_stdin=False)
        self.assertOK(cell)
        self.assertIn("read: interp: no input: this client does not allow input requests", cell.stdout(), cell)
        stderr = "".join(c["text"] for c in cell.of("stream") if c["name"] == "stderr")
        self.assertIn("allow_stdin is false", stderr, cell)
        with self.assertRaises(Empty):
            self.kc.get_stdin_msg(timeout=0.5)

    def test_interrupt_while_waiting_keeps_the_session(self):
        self.assertOK(self.run_cell("kept := 41"))
        msg_id = self.send('kept++\nvar never string\nfmt.Scanln(&never)\nkept = 0', allow_stdin=True)
        self.input_request(msg_id)
        self.km.interrupt_kernel()
        cell = self.collect(msg_id)
        self.assertEqual(cell.status, "error", cell)
        self.assertEqual(cell.content["ename"], "Interrupted", cell)
        after = self.run_cell("kept")
        self.assertOK(after)
        self.assertEqual(after.result(), "42", after)
        # The next cell asks again and gets its own line.
        msg_id = self.send('var again string\nfmt.Scanln(&again)\nagain + "!"', allow_stdin=True)
        self.input_request(msg_id)
        self.kc.input("fresh")
        cell = self.collect(msg_id)
        self.assertOK(cell)
        self.assertEqual(cell.result(), '"fresh!"', cell)


class ConsoleStdin(unittest.TestCase):
    def test_console_answers_input_request(self):
        # --simple-prompt reads each line as a cell; the console answers the
        # cell's input_request with the next line of its own input.
        cells = 'import "fmt"\nvar n int\nfmt.Print("how many? "); fmt.Scanln(&n); fmt.Println("twice:", 2*n)\n21\nn\n'
        p = subprocess.run(console_cmd() + ["--simple-prompt"], input=cells, capture_output=True,
                           text=True, timeout=60)
        out = p.stdout
        self.assertIn("how many? ", out, out)
        self.assertIn("twice: 42\n", out, out)
        self.assertIn("Out[4]: 21\n", out, out)
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    unittest.main()
