// Drives the gobayes kernel with JupyterLab's client library,
// @jupyterlab/services, through Jupyter Notebook 6's server: a session is
// started as JupyterLab starts one for a notebook (SessionManager, REST and
// the kernel's websocket), and each check sends real messages to the real
// kernel and asserts on the replies and IOPub messages the library hands back.
//
// run.sh starts the server and sets the environment:
//   JUPYTER_URL     http://127.0.0.1:PORT
//   JUPYTER_TOKEN   the server's token
//
// Prints one line per check ("ok   NAME" or "FAIL NAME: why") and ends with
// "N passed, M failed"; exits non-zero when anything failed.
'use strict';

const { KernelManager, KernelMessage, ServerConnection, SessionManager } = require('@jupyterlab/services');

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`tests/jlab: ${name} is not set (run tests/jlab/run.sh)`);
  return v;
};
const BASE = env('JUPYTER_URL');
const TOKEN = env('JUPYTER_TOKEN');

// The library logs its connection steps on the console; they are kept and
// shown only when something failed. print writes this test's own lines.
const print = console.log.bind(console);
const libraryLog = [];
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  console[level] = (...args) => libraryLog.push(`${level}: ${args.map(String).join(' ')}`);
}

// A check waits this long for one reply; far more than any cell here takes.
const REPLY_TIMEOUT_MS = 30000;

class Check extends Error {}

function expect(cond, msg) {
  if (!cond) throw new Check(msg);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Check(`no ${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const short = (v) => {
  const s = String(JSON.stringify(v));
  return s.length > 160 ? s.slice(0, 160) + '…' : s;
};

async function waitForServer(settings) {
  const deadline = Date.now() + 60000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const r = await ServerConnection.makeRequest(`${BASE}/api/status`, {}, settings);
      if (r.status === 200) return;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = String(e);
    }
    await sleep(250);
  }
  throw new Error(`Jupyter did not answer at ${BASE} within 60 s (${last})`);
}

function connected(kernel) {
  return new Promise((resolve) => {
    const onStatus = (_, status) => {
      if (status !== 'connected') return;
      kernel.connectionStatusChanged.disconnect(onStatus);
      resolve();
    };
    kernel.connectionStatusChanged.connect(onStatus);
    onStatus(kernel, kernel.connectionStatus);
  });
}

// Runs one cell and collects what it produced: the reply's content and the
// IOPub messages the library routed to the request (by parent header, and
// updates of a display to the requests that showed it). keep leaves the
// future open after the reply, as JupyterLab's output area does, so that
// later updates of its displays still reach it (in iopub).
async function execute(kernel, code, keep = false) {
  const future = kernel.requestExecute({ code, stop_on_error: false, allow_stdin: false }, !keep);
  const iopub = [];
  future.onIOPub = (msg) => iopub.push(msg);
  const reply = await within(future.done, REPLY_TIMEOUT_MS, `execute_reply to ${short(code)}`);
  return { reply: reply.content, iopub, future, msgId: future.msg.header.msg_id };
}

const ofType = (iopub, type) => iopub.filter((m) => m.header.msg_type === type);
const stdout = (iopub) => ofType(iopub, 'stream').filter((m) => m.content.name === 'stdout').map((m) => m.content.text).join('');

function expectOK(res, code) {
  const err = res.reply.status === 'error' ? `: ${res.reply.ename}: ${res.reply.evalue}` : '';
  expect(res.reply.status === 'ok', `${short(code)} replied ${res.reply.status}${err}`);
}

// ---- the checks, in the order they run: later ones rely on the state of earlier ones.

async function kernelInfo(kernel) {
  const reply = await within(kernel.requestKernelInfo(), REPLY_TIMEOUT_MS, 'kernel_info_reply');
  const c = reply.content;
  expect(c.status === 'ok', `status ${c.status}`);
  expect(/^5\.\d+$/.test(c.protocol_version), `protocol_version ${short(c.protocol_version)}, want 5.x`);
  expect(c.language_info && c.language_info.name === 'go', `language_info.name ${short(c.language_info)}`);
  expect(c.language_info.file_extension === '.go', `language_info.file_extension ${c.language_info.file_extension}`);
  expect(c.implementation === 'gobayes', `implementation ${c.implementation}`);
  // The library keeps the handshake's answer for the rest of the session.
  const info = await kernel.info;
  expect(info.implementation === 'gobayes', `kernel.info.implementation ${info.implementation}`);
}

async function executeStream(kernel) {
  const code = 'import "fmt"\n\nx := 41\nfmt.Println("hello from", x+1)';
  const res = await execute(kernel, code);
  expectOK(res, code);
  expect(Number.isInteger(res.reply.execution_count) && res.reply.execution_count >= 1,
    `execution_count ${res.reply.execution_count}`);
  const input = ofType(res.iopub, 'execute_input');
  expect(input.length === 1 && input[0].content.code === code, `execute_input ${short(input.map((m) => m.content))}`);
  expect(stdout(res.iopub) === 'hello from 42\n', `stdout ${short(stdout(res.iopub))}`);
  const states = ofType(res.iopub, 'status').map((m) => m.content.execution_state);
  expect(states[0] === 'busy' && states[states.length - 1] === 'idle', `status ${states}`);
}

async function executeResultFit(kernel) {
  const code = [
    'import "github.com/gobayes/gobayes/ppl"',
    '',
    'm := ppl.NewModel("jlab")',
    'mu := m.Normal("mu", 0, 1)',
    'm.Normal("y", mu, 1).Observe([]float64{0.5, 1.5})',
    'fit := m.Sample(ppl.Seed(1), ppl.Chains(2), ppl.Warmup(200), ppl.Draws(200))',
    'fit',
  ].join('\n');
  const res = await execute(kernel, code);
  expectOK(res, 'the fit cell');
  const results = ofType(res.iopub, 'execute_result');
  expect(results.length === 1, `${results.length} execute_result messages`);
  const r = results[0].content;
  expect(r.execution_count === res.reply.execution_count, `execute_result count ${r.execution_count}, reply ${res.reply.execution_count}`);
  const html = r.data['text/html'];
  expect(typeof html === 'string' && html.includes('<table') && html.includes('mu'),
    `text/html ${short(html)}`);
  expect(typeof r.data['text/plain'] === 'string', 'no text/plain beside text/html');
}

async function executeResultPlot(kernel) {
  const code = [
    'import "github.com/gobayes/gobayes/plotting"',
    '',
    'plotting.Dist(fit.Flat("mu"))',
  ].join('\n');
  const res = await execute(kernel, code);
  expectOK(res, code);
  const results = ofType(res.iopub, 'execute_result');
  expect(results.length === 1, `${results.length} execute_result messages`);
  const png = results[0].content.data['image/png'];
  expect(typeof png === 'string', `no image/png in ${short(Object.keys(results[0].content.data))}`);
  const bytes = Buffer.from(png, 'base64');
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    'image/png is not a base64 PNG');
  expect(bytes.length > 1000, `a PNG of ${bytes.length} bytes`);
}

async function executeError(kernel) {
  const code = 'fmt.Println("before")\nfmt.Println(len(drwas))';
  const res = await execute(kernel, code);
  const r = res.reply;
  expect(r.status === 'error', `status ${r.status}`);
  expect(r.ename === 'CompileError', `ename ${r.ename}`);
  expect(/cell:2:\d+: undefined: drwas/.test(r.evalue), `evalue ${short(r.evalue)}`);
  expect(Array.isArray(r.traceback) && r.traceback.length > 0 && r.traceback.every((l) => typeof l === 'string'),
    `traceback ${short(r.traceback)}`);
  const errors = ofType(res.iopub, 'error');
  expect(errors.length === 1 && errors[0].content.ename === r.ename && errors[0].content.evalue === r.evalue,
    `IOPub error ${short(errors.map((m) => m.content))}`);
  // A compile error runs nothing of the cell.
  expect(stdout(res.iopub) === '', `stdout ${short(stdout(res.iopub))}`);

  const panic = 'chains := 0\nfmt.Println(x / chains)';
  const p = await execute(kernel, panic);
  expect(p.reply.status === 'error' && p.reply.ename === 'panic' && /divide by zero \(cell:2:\d+\)/.test(p.reply.evalue),
    `a runtime panic replied ${p.reply.status} ${p.reply.ename}: ${short(p.reply.evalue)}`);
}

async function updateDisplay(kernel) {
  const first = [
    'import "github.com/gobayes/gobayes/display"',
    '',
    'bar := display.NewHandle()',
    'bar.Show(display.HTMLBundle("<b>step 1</b>"))',
    'bar.Update(display.HTMLBundle("<b>step 2</b>"))',
  ].join('\n');
  const a = await execute(kernel, first, true);
  try {
    expectOK(a, 'the display cell');
    const shown = ofType(a.iopub, 'display_data');
    expect(shown.length === 1, `${shown.length} display_data messages`);
    const id = shown[0].content.transient && shown[0].content.transient.display_id;
    expect(typeof id === 'string' && id !== '', `display_data without a display_id: ${short(shown[0].content)}`);
    expect(shown[0].content.data['text/html'] === '<b>step 1</b>', `display_data ${short(shown[0].content.data)}`);
    const upd = ofType(a.iopub, 'update_display_data');
    expect(upd.length === 1 && upd[0].content.transient.display_id === id &&
      upd[0].content.data['text/html'] === '<b>step 2</b>', `update_display_data ${short(upd.map((m) => m.content))}`);

    // A later cell updates the display an earlier cell made. The kernel
    // sends update_display_data as the later cell's child; the library hands
    // it to the request that showed the display (JupyterLab's output area of
    // the earlier cell), not to the later one.
    const seen = [];
    const watch = (_, msg) => {
      if (msg.header.msg_type === 'update_display_data') seen.push(msg);
    };
    kernel.iopubMessage.connect(watch);
    const later = 'bar.Update(display.HTMLBundle("<b>done</b>"))';
    let b;
    try {
      b = await execute(kernel, later);
    } finally {
      kernel.iopubMessage.disconnect(watch);
    }
    expectOK(b, later);
    expect(seen.length === 1 && seen[0].parent_header.msg_id === b.msgId && seen[0].content.transient.display_id === id &&
      seen[0].content.data['text/html'] === '<b>done</b>', `update_display_data on IOPub from the later cell: ${short(seen.map((m) => m.content))}`);
    const routed = ofType(a.iopub, 'update_display_data').slice(1);
    expect(routed.length === 1 && routed[0].content.data['text/html'] === '<b>done</b>',
      `the earlier cell's display got ${short(routed.map((m) => m.content.data))}`);
    expect(ofType(b.iopub, 'display_data').length === 0, 'a later Update made a new display');
  } finally {
    a.future.dispose();
  }
}

async function complete(kernel) {
  const code = 'm2 := ppl.NewMo';
  const reply = await within(kernel.requestComplete({ code, cursor_pos: code.length }), REPLY_TIMEOUT_MS, 'complete_reply');
  const c = reply.content;
  expect(c.status === 'ok', `status ${c.status}`);
  expect(c.cursor_end === code.length && c.cursor_start <= c.cursor_end, `cursor ${c.cursor_start}..${c.cursor_end}`);
  // What the client inserts: each match replaces code[cursor_start:cursor_end].
  const edited = c.matches.map((mt) => code.slice(0, c.cursor_start) + mt + code.slice(c.cursor_end));
  expect(edited.includes('m2 := ppl.NewModel'), `matches ${short(c.matches)} from ${c.cursor_start}`);
}

async function inspect(kernel) {
  const code = 'ppl.NewModel';
  const reply = await within(kernel.requestInspect({ code, cursor_pos: code.length, detail_level: 0 }), REPLY_TIMEOUT_MS, 'inspect_reply');
  const c = reply.content;
  expect(c.status === 'ok' && c.found === true, `status ${c.status}, found ${c.found}`);
  const text = c.data['text/plain'] || '';
  expect(/func NewModel\(/.test(text), `text/plain ${short(text)}`);

  const none = await within(kernel.requestInspect({ code: 'noSuchName', cursor_pos: 10, detail_level: 0 }), REPLY_TIMEOUT_MS, 'inspect_reply');
  expect(none.content.status === 'ok' && none.content.found === false, `an unknown name: found ${none.content.found}`);
}

async function isComplete(kernel) {
  const cases = [
    ['y := 1', 'complete'],
    ['func f() {', 'incomplete'],
    ['for i := 0; i < 3; i++ {\n    fmt.Println(i)', 'incomplete'],
    ['y := )', 'invalid'],
  ];
  for (const [code, want] of cases) {
    const reply = await within(kernel.requestIsComplete({ code }), REPLY_TIMEOUT_MS, 'is_complete_reply');
    expect(reply.content.status === want, `${short(code)}: ${reply.content.status}, want ${want}`);
    if (want === 'incomplete') {
      expect(typeof reply.content.indent === 'string', `${short(code)}: indent ${short(reply.content.indent)}`);
    }
  }
}

async function history(kernel) {
  const reply = await within(kernel.requestHistory({ hist_access_type: 'tail', n: 100, output: false, raw: true }),
    REPLY_TIMEOUT_MS, 'history_reply');
  const c = reply.content;
  expect(c.status === 'ok', `status ${c.status}`);
  const inputs = c.history.map((h) => h[2]);
  for (const want of ['fmt.Println("hello from", x+1)', 'fit := m.Sample(', 'bar.Update(display.HTMLBundle("<b>done</b>"))']) {
    expect(inputs.some((s) => s.includes(want)), `no cell with ${short(want)} in ${inputs.length} entries`);
  }
  const lines = c.history.map((h) => h[1]);
  expect(lines.every((n, i) => i === 0 || n > lines[i - 1]), `line numbers ${lines}`);

  const search = await within(kernel.requestHistory({ hist_access_type: 'search', pattern: '*NewHandle*', n: 10, output: false, raw: true, unique: true }),
    REPLY_TIMEOUT_MS, 'history_reply');
  expect(search.content.history.length === 1 && search.content.history[0][2].includes('bar := display.NewHandle()'),
    `search *NewHandle*: ${short(search.content.history)}`);
}

// A cell reading standard input: the kernel sends input_request on the
// stdin channel and reads the line of the client's input_reply, as
// JupyterLab's input box answers it.
async function stdin(kernel) {
  const code = 'var who string\nfmt.Scanln(&who)\nfmt.Println("hello,", who)';
  const future = kernel.requestExecute({ code, stop_on_error: false, allow_stdin: true });
  const iopub = [];
  const requests = [];
  future.onIOPub = (msg) => iopub.push(msg);
  future.onStdin = (msg) => {
    if (msg.header.msg_type !== 'input_request') return;
    requests.push(msg.content);
    kernel.sendInputReply({ status: 'ok', value: 'statistician' }, msg.header);
  };
  const reply = await within(future.done, REPLY_TIMEOUT_MS, 'execute_reply of the stdin cell');
  expect(reply.content.status === 'ok', `reply ${short(reply.content)}, stdout ${short(stdout(iopub))}, input_request ${short(requests)}`);
  expect(requests.length === 1 && requests[0].password === false, `input_request ${short(requests)}`);
  expect(stdout(iopub) === 'hello, statistician\n', `stdout ${short(stdout(iopub))}`);
}

async function commInfo(kernel) {
  const reply = await within(kernel.requestCommInfo({}), REPLY_TIMEOUT_MS, 'comm_info_reply');
  expect(reply.content.status === 'ok', `status ${reply.content.status}`);
  expect(reply.content.comms && Object.keys(reply.content.comms).length === 0, `comms ${short(reply.content.comms)}`);
  const widgets = await within(kernel.requestCommInfo({ target_name: 'jupyter.widget' }), REPLY_TIMEOUT_MS, 'comm_info_reply');
  expect(widgets.content.status === 'ok' && Object.keys(widgets.content.comms).length === 0,
    `target jupyter.widget: ${short(widgets.content)}`);
}

// gobayes registers no comm targets: the protocol asks a kernel to answer a
// comm_open for an unknown target with comm_close at once; comm_msg and
// comm_close for a comm it does not know are ignored. The kernel stays up.
async function comm(kernel) {
  const c = kernel.createComm('gobayes.no-such-target');
  const closed = new Promise((resolve) => {
    c.onClose = (msg) => resolve(msg);
  });
  c.open({ hello: 'kernel' });
  const msg = await within(closed, 10000, 'comm_close for an unknown target');
  expect(msg.header.msg_type === 'comm_close' && msg.content.comm_id === c.commId,
    `closed by ${msg.header.msg_type} for ${msg.content.comm_id}, want comm_close for ${c.commId}`);
  expect(msg.parent_header.msg_type === 'comm_open', `comm_close's parent ${msg.parent_header.msg_type}`);
  expect(!kernel.hasComm(c.commId), 'the library still holds the closed comm');

  // comm_msg and comm_close for an unknown comm: no reply is due, nothing breaks.
  for (const msgType of ['comm_msg', 'comm_close']) {
    kernel.sendShellMessage(KernelMessage.createMessage({
      msgType, channel: 'shell', session: kernel.clientId, username: kernel.username,
      content: { comm_id: 'not-a-comm', data: { x: 1 } },
    }));
  }
  const res = await execute(kernel, 'fmt.Println("still here", x)');
  expectOK(res, 'the cell after comm messages');
  expect(stdout(res.iopub) === 'still here 41\n', `stdout ${short(stdout(res.iopub))}`);
}

async function interrupt(kernel) {
  const future = kernel.requestExecute({ code: 'for {\n}', stop_on_error: false });
  const iopub = [];
  let running;
  const started = new Promise((resolve) => { running = resolve; });
  future.onIOPub = (msg) => {
    iopub.push(msg);
    if (msg.header.msg_type === 'execute_input') running();
  };
  await within(started, REPLY_TIMEOUT_MS, 'execute_input for the busy cell');
  await sleep(300);
  // Through the server's REST API, as JupyterLab's toolbar does; the
  // kernelspec asks for interrupt_mode "message", so the server sends an
  // interrupt_request on the control channel.
  await within(kernel.interrupt(), REPLY_TIMEOUT_MS, 'interrupt');
  const reply = await within(future.done, 20000, 'execute_reply after the interrupt');
  expect(reply.content.status === 'error', `the busy cell replied ${reply.content.status}`);
  expect(/interrupt/i.test(`${reply.content.ename} ${reply.content.evalue}`),
    `the busy cell ended with ${reply.content.ename}: ${short(reply.content.evalue)}`);

  const after = await execute(kernel, 'fmt.Println("x is", x)');
  expectOK(after, 'the cell after the interrupt');
  expect(stdout(after.iopub) === 'x is 41\n', `after the interrupt: stdout ${short(stdout(after.iopub))}`);
}

async function restart(kernel) {
  const before = await execute(kernel, 'fmt.Println(x)');
  expectOK(before, 'the cell before the restart');
  const oldCount = before.reply.execution_count;
  await within(kernel.restart(), 60000, 'restart');
  expect(kernel.connectionStatus === 'connected', `connection ${kernel.connectionStatus}`);
  const info = await within(kernel.requestKernelInfo(), REPLY_TIMEOUT_MS, 'kernel_info_reply after the restart');
  expect(info.content.implementation === 'gobayes', `after the restart: implementation ${info.content.implementation}`);

  const res = await execute(kernel, 'x');
  expect(res.reply.status === 'error' && /undefined: x/.test(res.reply.evalue),
    `x after the restart: ${res.reply.status} ${res.reply.ename}: ${short(res.reply.evalue)}`);
  expect(res.reply.execution_count < oldCount, `execution_count ${res.reply.execution_count} after ${oldCount}: no fresh kernel`);
  const fresh = await execute(kernel, '6 * 7');
  expectOK(fresh, '6 * 7');
  const r = ofType(fresh.iopub, 'execute_result');
  expect(r.length === 1 && r[0].content.data['text/plain'] === '42', `6 * 7 showed ${short(r.map((m) => m.content.data))}`);
}

async function report(counts, name, fn, ...args) {
  try {
    await fn(...args);
    counts.passed++;
    print(`ok   ${name}`);
  } catch (e) {
    counts.failed++;
    print(`FAIL ${name}: ${e instanceof Check ? e.message : (e && e.stack) || e}`);
  }
}

async function main() {
  const serverSettings = ServerConnection.makeSettings({ baseUrl: `${BASE}/`, token: TOKEN });
  await waitForServer(serverSettings);
  const kernelManager = new KernelManager({ serverSettings });
  const sessions = new SessionManager({ kernelManager, serverSettings });
  const counts = { passed: 0, failed: 0 };
  let session;
  try {
    session = await within(sessions.startNew({
      path: 'jlab.ipynb', name: 'jlab.ipynb', type: 'notebook', kernel: { name: 'gobayes' },
    }), 60000, 'session');
    const kernel = session.kernel;
    // JupyterLab sends nothing before the websocket is up; the library does
    // not queue a kernel_info_request sent earlier.
    await within(connected(kernel), REPLY_TIMEOUT_MS, 'websocket connection');
    await report(counts, 'kernel_info', kernelInfo, kernel);
    await report(counts, 'execute: stdout stream', executeStream, kernel);
    await report(counts, 'execute: text/html result of a ppl fit', executeResultFit, kernel);
    await report(counts, 'execute: image/png result of a plot', executeResultPlot, kernel);
    await report(counts, 'execute: error reply', executeError, kernel);
    await report(counts, 'update_display_data', updateDisplay, kernel);
    await report(counts, 'complete', complete, kernel);
    await report(counts, 'inspect', inspect, kernel);
    await report(counts, 'is_complete', isComplete, kernel);
    await report(counts, 'history', history, kernel);
    await report(counts, 'stdin: input_request and input_reply', stdin, kernel);
    await report(counts, 'comm_info', commInfo, kernel);
    await report(counts, 'comm open/msg/close', comm, kernel);
    await report(counts, 'interrupt', interrupt, kernel);
    await report(counts, 'restart', restart, kernel);
    await report(counts, 'shutdown', async () => {
      const id = kernel.id;
      await within(session.shutdown(), REPLY_TIMEOUT_MS, 'session shutdown');
      const r = await ServerConnection.makeRequest(`${BASE}/api/kernels`, {}, serverSettings);
      const running = await r.json();
      expect(!running.some((k) => k.id === id), `kernel ${id} still listed`);
      session = null;
    });
  } catch (e) {
    counts.failed++;
    print(`FAIL session: ${(e && e.stack) || e}`);
  } finally {
    if (session) await session.shutdown().catch(() => {});
    sessions.dispose();
    kernelManager.dispose();
  }
  if (counts.failed > 0 && libraryLog.length > 0) {
    print('--- what @jupyterlab/services logged:');
    for (const line of libraryLog.slice(-30)) print(line);
  }
  print(`${counts.passed} passed, ${counts.failed} failed`);
  return counts.failed === 0 ? 0 : 1;
}

main().then((rc) => process.exit(rc), (e) => {
  print(`FAIL tests/jlab: ${(e && e.stack) || e}`);
  print('0 passed, 1 failed');
  process.exit(1);
});
