// Drives the tutorial notebooks in Jupyter Notebook 6 through headless
// Chromium, as a person would: Run All from the Cell menu, then the outputs
// on the page are checked (no errors, every committed image and summary table
// shown), and one scratch notebook exercises the live progress table, the
// toolbar's interrupt button, a slider widget that redraws a plot and Tab
// completion. One screenshot per notebook
// and per interaction goes to SCREENSHOTS.
//
// run.sh starts the server and sets the environment:
//   JUPYTER_URL     http://127.0.0.1:PORT
//   JUPYTER_TOKEN   the server's token
//   NOTEBOOK_DIR    the server's notebook directory (a copy of notebooks/)
//   COMMITTED_DIR   the committed notebooks, read for what each cell shows
//   SCREENSHOTS     where the PNGs go
//   CHROMIUM        the browser (Debian's /usr/bin/chromium)
//   PROFILE_DIR     an empty directory for Chromium's profile
//   NOTEBOOKS       optional: only notebooks whose file name contains one of these words
//
// Prints one line per check and ends with "N passed, M failed".
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const { chromium } = require('playwright-core');

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`tests/browser: ${name} is not set (run tests/browser/run.sh)`);
  return v;
};
const BASE = env('JUPYTER_URL');
const TOKEN = env('JUPYTER_TOKEN');
const NOTEBOOK_DIR = env('NOTEBOOK_DIR');
const COMMITTED_DIR = env('COMMITTED_DIR');
const SCREENSHOTS = env('SCREENSHOTS');
const CHROMIUM = env('CHROMIUM');
const PROFILE_DIR = env('PROFILE_DIR');
const ONLY = (process.env.NOTEBOOKS || '').split(/\s+/).filter(Boolean);

// A notebook must run well under a minute (tests/notebooks bounds one cell
// at 120 s); this bounds a whole notebook on a loaded machine.
const NOTEBOOK_TIMEOUT_MS = 180000;
// Closed network: without these Chromium keeps calling out and being refused.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

class Check extends Error {}

function expect(cond, msg) {
  if (!cond) throw new Check(msg);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One request to the server's REST API, with the token.
function api(method, route) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${BASE}${route}`, { method, headers: { Authorization: `token ${TOKEN}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitForServer() {
  const deadline = Date.now() + 60000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const r = await api('GET', '/api/status');
      if (r.status === 200) return;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = String(e);
    }
    await sleep(250);
  }
  throw new Error(`Jupyter did not answer at ${BASE} within 60 s (${last})`);
}

// Shuts every kernel down (closing a page leaves its kernel running).
async function shutdownKernels() {
  const sessions = JSON.parse((await api('GET', '/api/sessions')).body);
  for (const s of sessions) await api('DELETE', `/api/sessions/${s.id}`);
}

// What the committed notebook shows, per cell index: how many PNGs and
// HTML tables, and the tags. The browser must show as many after a fresh run.
function committedOutputs(file) {
  const nb = JSON.parse(fs.readFileSync(path.join(COMMITTED_DIR, file), 'utf8'));
  return nb.cells.map((c, i) => {
    const outs = c.outputs || [];
    const html = (o) => [].concat((o.data || {})['text/html'] || []).join('');
    return {
      index: i,
      code: c.cell_type === 'code',
      tags: (c.metadata && c.metadata.tags) || [],
      // An SVG outranks the PNG beside it (its fallback for untrusted notebooks).
      pngs: outs.filter((o) => o.data && 'image/png' in o.data && !('image/svg+xml' in o.data)).length,
      tables: outs.filter((o) => html(o).includes('<table')).length,
    };
  });
}

async function openNotebook(page, file) {
  // The first page of a run loads Notebook's scripts cold: slow on a loaded machine.
  await page.goto(`${BASE}/notebooks/${encodeURIComponent(file)}?token=${TOKEN}`, { timeout: 90000 });
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded &&
    Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected(), null, { timeout: 60000 });
  await page.waitForSelector('#kernel_indicator_icon.kernel_idle_icon', { timeout: 60000 });
}

// Clicks a menu of the menu bar, then one of its items.
async function menu(page, title, itemId) {
  await page.click(`#menubar .navbar-nav > li > a.dropdown-toggle:text-is("${title}")`);
  await page.click(`${itemId} > a`);
}

// The state of every code cell as the page shows it.
function cellStates(page) {
  return page.evaluate(() => Jupyter.notebook.get_cells().map((c, i) => ({
    index: i,
    code: c.cell_type === 'code',
    prompt: c.cell_type === 'code' ? c.input_prompt_number : null,
  })));
}

// Waits until no code cell is queued or running and every one has run, or
// the kernel has been idle for a while with nothing queued (a cell whose
// error stopped the rest leaves them unrun; the checks then name them).
async function waitForRunAll(page, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let idleSince = null;
  for (;;) {
    const cells = (await cellStates(page)).filter((c) => c.code);
    const busy = cells.some((c) => c.prompt === '*');
    const allRan = cells.every((c) => typeof c.prompt === 'number');
    const idle = await page.$('#kernel_indicator_icon.kernel_idle_icon');
    if (!busy && allRan && idle) return;
    if (!busy && idle) {
      idleSince = idleSince || Date.now();
      if (Date.now() - idleSince > 3000) return;
    } else {
      idleSince = null;
    }
    if (Date.now() > deadline) {
      const running = cells.filter((c) => c.prompt === '*').map((c) => c.index);
      throw new Check(`not done after ${timeoutMs / 1000} s (cells still queued or running: ${running.join(', ')})`);
    }
    await sleep(250);
  }
}

// A screenshot of the whole notebook: the page scrolls inside #site, so the
// viewport is made as tall as the notebook for the shot.
async function screenshotNotebook(page, name) {
  const size = page.viewportSize();
  const height = await page.evaluate(() => document.querySelector('#header').offsetHeight +
    document.querySelector('#notebook').scrollHeight + 40);
  await page.setViewportSize({ width: size.width, height: Math.min(Math.max(height, size.height), 16000) });
  await sleep(300);
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  await page.setViewportSize(size);
  return file;
}

async function screenshot(page, name) {
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

// What one cell's output area shows on the page.
function pageOutputs(page) {
  return page.evaluate(() => Jupyter.notebook.get_cells().map((c) => {
    // The cell's own output area: a widget's Output view holds an output
    // area of its own, which a query for '.output' would find first.
    const out = c.output_area ? c.output_area.element[0] : null;
    if (!out) return { errors: [], stderr: [], images: 0, brokenImages: 0, tables: 0 };
    const imgs = [...out.querySelectorAll('img')];
    return {
      errors: [...out.querySelectorAll('.output_error')].map((e) => e.innerText.trim()),
      stderr: [...out.querySelectorAll('.output_stderr')].map((e) => e.innerText.trim()),
      images: imgs.filter((im) => im.src.startsWith('data:image/png') && im.complete && im.naturalWidth > 0).length,
      brokenImages: imgs.filter((im) => !(im.complete && im.naturalWidth > 0)).length,
      tables: out.querySelectorAll('table').length,
    };
  }));
}

// Runs one tutorial notebook with Cell → Run All and checks what it shows.
async function checkNotebook(page, file) {
  const name = path.basename(file, '.ipynb');
  const committed = committedOutputs(file);
  await openNotebook(page, file);
  // The copy still holds the committed outputs: clear them so that only
  // what this run shows is checked.
  await page.evaluate(() => Jupyter.notebook.clear_all_output());
  await menu(page, 'Cell', '#run_all_cells');
  let waitErr = null;
  try {
    await waitForRunAll(page, NOTEBOOK_TIMEOUT_MS);
  } catch (e) {
    waitErr = e;
  }
  const shot = await screenshotNotebook(page, `notebook-${name}`);
  if (waitErr) throw waitErr;
  const states = await cellStates(page);
  const shown = await pageOutputs(page);
  const problems = [];
  let images = 0;
  let tables = 0;
  let lastPrompt = 0;
  for (const want of committed) {
    if (!want.code) continue;
    const i = want.index;
    const got = shown[i];
    // A fresh kernel numbers the cells it runs 1, 2, …; a cell aborted
    // after an earlier error shows no number or the one before it again.
    const prompt = states[i].prompt;
    if (typeof prompt !== 'number' || prompt <= lastPrompt) problems.push(`cell ${i} did not run (In [${prompt === undefined ? ' ' : prompt}])`);
    if (typeof prompt === 'number') lastPrompt = prompt;
    const expectsError = want.tags.includes('raises-exception');
    if (expectsError && got.errors.length === 0) problems.push(`cell ${i} is tagged raises-exception but shows no error`);
    if (!expectsError) for (const e of got.errors) problems.push(`cell ${i} shows an error: ${e.split('\n')[0]}`);
    for (const e of got.stderr) problems.push(`cell ${i} wrote to stderr: ${e.split('\n')[0]}`);
    if (got.brokenImages) problems.push(`cell ${i} shows ${got.brokenImages} image(s) that did not load`);
    if (got.images < want.pngs) problems.push(`cell ${i} shows ${got.images} PNG images, the committed notebook ${want.pngs}`);
    if (got.tables < want.tables) problems.push(`cell ${i} shows ${got.tables} HTML tables, the committed notebook ${want.tables}`);
    images += got.images;
    tables += got.tables;
  }
  expect(problems.length === 0, problems.join('; '));
  return `${images} images, ${tables} tables, ${path.basename(shot)}`;
}

// Opens a tutorial as shipped, without running it, as a student does first:
// it must show what it showed when it ran: the model graph drawn, the
// model typeset, the progress bars and the R-hat flags. run.sh signs the
// server's copies as `make install-kernel` signs notebooks/, and leaves one
// copy unsigned (file): Notebook drops an untrusted notebook's SVG and
// inline styles, so there the outputs' fallbacks must show (the graph as
// an image, the bars without styles).
async function checkShipped(page, file, committedFile, trusted) {
  const committed = committedOutputs(committedFile);
  const tagged = (tag) => {
    const c = committed.find((x) => x.tags.includes(tag));
    if (!c) throw new Check(`${committedFile} has no cell tagged ${tag}`);
    return c.index;
  };
  await openNotebook(page, file);
  const problems = [];
  const isTrusted = await page.evaluate(() => Jupyter.notebook.trusted);
  if (isTrusted !== trusted) problems.push(`the notebook opens ${isTrusted ? 'trusted' : '"Not Trusted"'}`);
  const graph = tagged('centred-graph');
  const latex = tagged('centred-latex');
  const fit = tagged('centred-fit');
  // MathJax typesets after the page loads.
  await page.waitForFunction((i) => Jupyter.notebook.get_cell(i).element[0]
    .querySelector('.output .MathJax_Display, .output .MathJax, .output mjx-container'), latex, { timeout: 15000 })
    .catch(() => problems.push(`cell ${latex}: the model's LaTeX is not typeset`));
  const shown = await page.evaluate(([graph, latex, fit]) => {
    const out = (i) => Jupyter.notebook.get_cell(i).element[0].querySelector('.output');
    const drawn = (el) => el.offsetWidth > 20 && el.offsetHeight > 4;
    const bars = [...out(fit).querySelectorAll('.gobayes-progress tbody tr')].map((tr) => tr.children[1]);
    const flags = [...out(fit).querySelectorAll('.gobayes-summary td')].filter((td) => td.innerText.endsWith('*'));
    const images = [...out(graph).querySelectorAll('img')].filter((im) => im.complete && im.naturalWidth > 200);
    return {
      svgNodes: out(graph).querySelectorAll('svg g.node').length,
      graphImages: images.length,
      rawLatex: out(latex).innerText.includes('\\begin{array}'),
      bars: bars.length,
      // A bar is drawn when an element inside its cell has a colour and a
      // size of its own, or the cell draws it with characters.
      drawnBars: bars.filter((td) => [...td.querySelectorAll('*')].some((el) => drawn(el) &&
        getComputedStyle(el).backgroundColor !== 'rgba(0, 0, 0, 0)') || /█/.test(td.innerText)).length,
      flags: flags.length,
      redFlags: flags.filter((td) => getComputedStyle(td).color === 'rgb(187, 0, 0)').length,
    };
  }, [graph, latex, fit]);
  if (trusted && shown.svgNodes !== 4) problems.push(`cell ${graph}: the model graph shows ${shown.svgNodes} drawn nodes, not 4`);
  if (!trusted && shown.svgNodes !== 4 && shown.graphImages !== 1) problems.push(`cell ${graph}: the model graph is not drawn`);
  if (shown.rawLatex) problems.push(`cell ${latex}: the model shows as raw LaTeX`);
  if (shown.bars === 0 || shown.drawnBars !== shown.bars) problems.push(`cell ${fit}: ${shown.drawnBars} of ${shown.bars} progress bars drawn`);
  if (shown.flags === 0) problems.push(`cell ${fit}: no R-hat flag shown`);
  if (trusted && shown.redFlags !== shown.flags) problems.push(`cell ${fit}: ${shown.redFlags} of ${shown.flags} R-hat flags red`);
  const shot = await screenshotNotebook(page, `shipped-${path.basename(file, '.ipynb')}`);
  expect(problems.length === 0, problems.join('; '));
  return `graph, LaTeX, ${shown.bars} progress bars and ${shown.flags} R-hat flags shown, ${path.basename(shot)}`;
}

// A tutorial on a projector or a laptop at 150% zoom (a device pixel ratio
// of 1.5, as the browser's zoom makes it): every plot must hold at least
// 1.5 image pixels per CSS pixel it is shown at, so that its text stays
// sharp rather than scaled up. The screenshot is at that zoom.
async function checkZoom(page, file) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 1.5, mobile: false });
  await openNotebook(page, file);
  await page.waitForFunction(() => [...document.querySelectorAll('.output_png img')].every((im) => im.complete), null, { timeout: 30000 });
  const images = await page.evaluate(() => [...document.querySelectorAll('.output_png img')].map((im) => ({
    natural: im.naturalWidth, shown: im.getBoundingClientRect().width,
  })));
  await page.evaluate(() => document.querySelector('.output_png img').scrollIntoView());
  const shot = await screenshot(page, `zoom150-${path.basename(file, '.ipynb')}`);
  await cdp.send('Emulation.clearDeviceMetricsOverride');
  expect(images.length > 0, 'no plot shown');
  const blurry = images.filter((im) => im.natural < 1.5 * im.shown);
  expect(blurry.length === 0, `${blurry.length} of ${images.length} plots hold fewer than 1.5 pixels per CSS pixel at 150% zoom: ` +
    blurry.map((im) => `${im.natural} px shown at ${Math.round(im.shown)}`).join(', '));
  const least = Math.min(...images.map((im) => im.natural / im.shown));
  return `${images.length} plots, at least ${least.toFixed(2)} image pixels per CSS pixel, ${path.basename(shot)}`;
}

// The scratch notebook of the interactions, written into the server's copy.
const INTERACTIONS = 'browser-interactions.ipynb';
const SETUP = 'import (\n    "fmt"\n\n    "github.com/gobayes/gobayes/ppl"\n)\n\nbefore := 42\nfmt.Println("before =", before)';
// A model that takes a few seconds to sample, so that the progress table
// is seen changing (it updates a few times a second).
const SLOW_SAMPLE = [
  'slow := ppl.NewModel("slow")',
  'z := slow.Normal("z", 0, 1, ppl.Size(200))',
  'slow.Normal("y", z, 0.5).Observe(make([]float64, 200))',
  'slowFit := slow.Sample(ppl.Chains(2), ppl.Warmup(1000), ppl.Draws(10000), ppl.Seed(7))',
  'fmt.Println("sampled", slowFit.Draws(), "draws per chain")',
].join('\n');
const BUSY = '// runs until interrupted\nfor {\n}';
const AFTER = 'fmt.Println("after the interrupt, before =", before)';
// A teaching cell: the prior predictive of y = mu + noise, mu ~ Normal(0,
// scale), redrawn by the kernel whenever the student moves the slider or
// picks another noise family.
const PRIOR_WIDGETS = [
  'import (',
  '    "math"',
  '    "math/rand"',
  '',
  '    "github.com/gobayes/gobayes/display"',
  '    "github.com/gobayes/gobayes/plotting"',
  '    "github.com/gobayes/gobayes/widgets"',
  ')',
  '',
  'scale := widgets.FloatSlider("prior scale", 0.1, 10, 1)',
  'family := widgets.Dropdown("noise", "Normal", "StudentT")',
  'widgets.Interact(func() {',
  '    rng := rand.New(rand.NewSource(1))',
  '    draws := make([]float64, 2000)',
  '    for i := range draws {',
  '        noise := rng.NormFloat64()',
  '        if family.Value() == "StudentT" {',
  '            a, b, c := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()',
  '            noise /= math.Sqrt((a*a + b*b + c*c) / 3)',
  '        }',
  '        draws[i] = scale.Value()*rng.NormFloat64() + noise',
  '    }',
  '    display.Show(plotting.Dist(draws, plotting.Labels("y prior predictive"),',
  '        plotting.Title(fmt.Sprintf("prior predictive, %s noise, prior scale %.2f", family.Value(), scale.Value()))))',
  '}, scale, family)',
].join('\n');
const READ_SCALE = 'fmt.Printf("scale in Go: %.2f\\n", scale.Value())';

function writeInteractionsNotebook() {
  const cell = (src) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: src });
  const nb = {
    cells: [cell(SETUP), cell(SLOW_SAMPLE), cell(BUSY), cell(AFTER), cell(PRIOR_WIDGETS), cell(READ_SCALE), cell('')],
    metadata: { kernelspec: { display_name: 'Go (gobayes)', language: 'go', name: 'gobayes' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  fs.writeFileSync(path.join(NOTEBOOK_DIR, INTERACTIONS), JSON.stringify(nb, null, 1));
}

// Selects cell i and clicks the toolbar's Run button.
async function runCell(page, i) {
  await page.evaluate((i) => Jupyter.notebook.select(i), i);
  await page.click('#maintoolbar button[data-jupyter-action="jupyter-notebook:run-cell-and-select-next"]');
}

function cellPrompt(page, i) {
  return page.evaluate((i) => Jupyter.notebook.get_cell(i).input_prompt_number, i);
}

async function waitCellDone(page, i, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const p = await cellPrompt(page, i);
    if (typeof p === 'number') return;
    if (Date.now() > deadline) throw new Check(`cell ${i} still running after ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

function cellText(page, i) {
  return page.evaluate((i) => {
    const out = Jupyter.notebook.get_cell(i).element[0].querySelector('.output');
    return out ? out.innerText : '';
  }, i);
}

// The fraction of all chains' iterations done, from the progress table's
// "k / N" column, or null where the cell shows no progress table.
function progressOf(text) {
  const its = [...text.matchAll(/(\d+) \/ (\d+)/g)];
  if (!its.length) return null;
  let done = 0;
  let total = 0;
  for (const m of its) {
    done += Number(m[1]);
    total += Number(m[2]);
  }
  return total ? done / total : null;
}

async function checkSetup(page) {
  writeInteractionsNotebook();
  await openNotebook(page, INTERACTIONS);
  await runCell(page, 0);
  await waitCellDone(page, 0, 60000);
  const text = await cellText(page, 0);
  expect(text.includes('before = 42'), `the first cell printed ${JSON.stringify(text)}`);
}

// The progress table of a running Sample changes on the page while the cell
// runs: a MutationObserver records every distinct state of it.
async function checkProgress(page) {
  await page.evaluate(() => {
    window.progressSeen = [];
    window.progressMutations = 0;
    const out = Jupyter.notebook.get_cell(1).element[0].querySelector('.output');
    new MutationObserver(() => {
      window.progressMutations++;
      const table = out.querySelector('.gobayes-progress');
      const running = Jupyter.notebook.get_cell(1).input_prompt_number === '*';
      if (!table || !running) return;
      const t = table.innerText;
      if (window.progressSeen[window.progressSeen.length - 1] !== t) window.progressSeen.push(t);
    }).observe(out, { childList: true, subtree: true, characterData: true, attributes: true });
  });
  await runCell(page, 1);
  // A screenshot once the table shows a run part-way through.
  const deadline = Date.now() + 60000;
  let shot = null;
  while (Date.now() < deadline && typeof (await cellPrompt(page, 1)) !== 'number') {
    const p = progressOf(await cellText(page, 1));
    if (!shot && p !== null && p > 0 && p < 1) shot = await screenshot(page, 'interaction-progress-midrun');
    await sleep(100);
  }
  await waitCellDone(page, 1, 60000);
  const seen = await page.evaluate(() => window.progressSeen);
  const mutations = await page.evaluate(() => window.progressMutations);
  const done = await cellText(page, 1);
  await screenshot(page, 'interaction-progress-done');
  const fractions = [...new Set(seen.map(progressOf).filter((p) => p !== null && p < 1))];
  expect(!done.includes('Error') && done.includes('sampled 10000 draws per chain'), `the Sample cell ended with ${JSON.stringify(done.slice(-300))}`);
  expect(fractions.length >= 2, `the progress table showed ${fractions.length} distinct part-way states while the cell ran (want 2 or more; ${mutations} DOM mutations, states: ${JSON.stringify(seen.slice(0, 3))})`);
  expect(shot !== null, 'no screenshot of the run part-way through was taken');
  const pct = fractions.map((f) => `${Math.round(100 * f)}%`);
  return `${fractions.length} part-way states (${pct.slice(0, 4).join(', ')}${pct.length > 4 ? ', …' : ''}), ${mutations} DOM mutations`;
}

// The toolbar's interrupt button stops a `for {}` cell; the error says it was
// interrupted; the next cell still sees a variable defined before.
async function checkInterrupt(page) {
  await runCell(page, 2);
  await page.waitForSelector('#kernel_indicator_icon.kernel_busy_icon', { timeout: 30000 });
  await sleep(1000);
  expect((await cellPrompt(page, 2)) === '*', 'the busy cell is not running');
  await screenshot(page, 'interaction-interrupt-running');
  const clicked = Date.now();
  await page.click('#maintoolbar button[data-jupyter-action="jupyter-notebook:interrupt-kernel"]');
  await waitCellDone(page, 2, 30000);
  const stoppedAfter = (Date.now() - clicked) / 1000;
  const errors = await page.evaluate(() => [...Jupyter.notebook.get_cell(2).element[0].querySelectorAll('.output_error')]
    .map((e) => e.innerText));
  await screenshot(page, 'interaction-interrupt-stopped');
  expect(errors.length === 1, `the interrupted cell shows ${errors.length} errors`);
  expect(/interrupted/i.test(errors[0]), `the interrupted cell's error does not say it was interrupted: ${errors[0]}`);
  await runCell(page, 3);
  await waitCellDone(page, 3, 30000);
  // The reply (shell) and the printed line (iopub) reach the page over two
  // sockets of the server, in either order: wait a little for the line.
  let after = await cellText(page, 3);
  for (let t = 0; t < 50 && !after.includes('after the interrupt'); t++) {
    await sleep(100);
    after = await cellText(page, 3);
  }
  await screenshot(page, 'interaction-after-interrupt');
  expect(after.includes('after the interrupt, before = 42'), `the cell after the interrupt printed ${JSON.stringify(after)}`);
  return `stopped ${stoppedAfter.toFixed(1)} s after the click: ${errors[0].split('\n')[0].slice(0, 60)}…`;
}

// The widget cell's slider, dragged with the mouse in the widget area,
// makes the kernel redraw the prior predictive plot below it (an ordinary
// display in the cell's output, updated in place, so that the notebook
// saves it); a later cell reads the slider's value in Go.
const WIDGET_CELL = 4;
const COMPLETION_CELL = 6;

function widgetImage(page) {
  return page.evaluate((i) => {
    const img = Jupyter.notebook.get_cell(i).element[0].querySelector('.output_wrapper img');
    return img ? img.src : null;
  }, WIDGET_CELL);
}

async function checkWidgets(page) {
  await runCell(page, WIDGET_CELL);
  await waitCellDone(page, WIDGET_CELL, 60000);
  const cell = `#notebook-container .cell:nth-child(${WIDGET_CELL + 1})`;
  const handle = page.locator(`${cell} .widget-area .ui-slider-handle`);
  await handle.waitFor({ timeout: 30000 });
  let before = null;
  for (let t = 0; t < 100 && !before; t++) {
    before = await widgetImage(page);
    if (!before) await sleep(100);
  }
  expect(before, 'no prior predictive plot under the widgets after the cell ran');
  await page.locator(`${cell} .widget-area .ui-slider`).first().scrollIntoViewIfNeeded();
  await page.evaluate(() => { document.querySelector('#site').scrollTop += 300; });
  await screenshot(page, 'interaction-widgets-before');
  const errors = await page.evaluate((i) => Jupyter.notebook.get_cell(i).element[0].querySelectorAll('.output_error').length, WIDGET_CELL);
  expect(errors === 0, `the widget cell shows ${errors} errors`);
  // Drag the handle from 1 (near the left end) to about 8.
  const track = await page.locator(`${cell} .widget-area .ui-slider`).first().boundingBox();
  const hb = await handle.first().boundingBox();
  await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width * 0.5, track.y + track.height / 2, { steps: 5 });
  await page.mouse.move(track.x + track.width * 0.8, track.y + track.height / 2, { steps: 5 });
  await page.mouse.up();
  const readout = await page.evaluate((i) => {
    const r = Jupyter.notebook.get_cell(i).element[0].querySelector('.widget-area .widget-readout');
    return r ? (r.innerText || r.value) : null;
  }, WIDGET_CELL);
  expect(readout && Math.abs(Number(readout) - 8) < 1.5, `the slider reads ${JSON.stringify(readout)} after the drag, want about 8`);
  // The kernel redraws after each update; wait for the title of the last.
  let after = null;
  for (let t = 0; t < 150; t++) {
    after = await widgetImage(page);
    const busy = await page.evaluate(() => document.querySelector('#kernel_indicator_icon').classList.contains('kernel_busy_icon'));
    if (after && after !== before && !busy) break;
    await sleep(100);
  }
  await sleep(500);
  after = await widgetImage(page);
  const images = await page.evaluate((i) => Jupyter.notebook.get_cell(i).element[0].querySelectorAll('img').length, WIDGET_CELL);
  await screenshot(page, 'interaction-widgets-after');
  expect(after && after !== before, 'the plot did not change after the slider moved');
  expect(images === 1, `the widget cell shows ${images} images, want the redrawn one only`);
  // What the notebook saves (the cell's outputs in the notebook's model):
  // the redrawn figure as an image, shown when it is opened without a
  // kernel, where an Output widget's contents are lost.
  const saved = await page.evaluate((i) => Jupyter.notebook.get_cell(i).output_area.outputs
    .filter((o) => o.data && o.data['image/png']).map((o) => String(o.data['image/png']).replace(/\n/g, '')), WIDGET_CELL);
  expect(saved.length === 1 && after.endsWith(saved[0]), `the notebook would save ${saved.length} images of the plot, want the redrawn one`);
  // The description in full, and a slider track longer than the 100 px
  // that jupyter-js-widgets 2.1.4 draws by default.
  const label = await page.evaluate((i) => {
    const el = Jupyter.notebook.get_cell(i).element[0].querySelector('.widget-area .widget-htmlmath');
    return el ? { text: el.innerText, clipped: el.scrollWidth > el.clientWidth } : null;
  }, WIDGET_CELL);
  expect(label && label.text.includes('prior scale') && !label.clipped, `the slider's description is ${JSON.stringify(label)}, want "prior scale" in full`);
  expect(track.width > 200, `the slider's track is ${Math.round(track.width)} px wide, want more than 200`);
  await runCell(page, WIDGET_CELL + 1);
  await waitCellDone(page, WIDGET_CELL + 1, 30000);
  let text = await cellText(page, WIDGET_CELL + 1);
  for (let t = 0; t < 50 && !text.includes('scale in Go'); t++) {
    await sleep(100);
    text = await cellText(page, WIDGET_CELL + 1);
  }
  expect(text.includes(`scale in Go: ${Number(readout).toFixed(2)}`), `the next cell printed ${JSON.stringify(text)}, want the slider's ${readout}`);
  return `slider dragged to ${readout}; the plot was redrawn (${before.length} → ${after.length} bytes of data URL); Go reads ${text.trim()}`;
}

// Typing `ppl.NewMo` and Tab offers or inserts NewModel.
async function checkCompletion(page) {
  await page.evaluate((i) => {
    Jupyter.notebook.select(i);
    Jupyter.notebook.edit_mode();
  }, COMPLETION_CELL);
  await page.keyboard.type('m := ppl.NewMo');
  await page.keyboard.press('Tab');
  // Notebook 6 inserts a single match at once and lists several in a box.
  const deadline = Date.now() + 15000;
  let got = null;
  while (Date.now() < deadline) {
    got = await page.evaluate((i) => ({
      text: Jupyter.notebook.get_cell(i).get_text(),
      offered: [...document.querySelectorAll('.completions select option')].map((o) => o.textContent),
    }), COMPLETION_CELL);
    if (got.text.includes('NewModel') || got.offered.some((o) => o.includes('NewModel'))) break;
    await sleep(100);
  }
  await screenshot(page, 'interaction-completion');
  const inserted = got.text.includes('ppl.NewModel');
  expect(inserted || got.offered.some((o) => o.includes('NewModel')),
    `after Tab the cell reads ${JSON.stringify(got.text)} and the completions offered are ${JSON.stringify(got.offered)}`);
  return inserted ? `inserted: ${JSON.stringify(got.text)}` : `offered: ${got.offered.join(', ')}`;
}

// Run All over a cell that fails: the cells after it do not run, and the
// page must say so as ipykernel's do, unnumbered (In [ ]) and empty, not
// numbered as if they had run and printed nothing.
const ABORT_NOTEBOOK = 'browser-run-all-error.ipynb';
async function checkRunAllAfterError(page) {
  const cell = (src) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: src });
  fs.writeFileSync(path.join(NOTEBOOK_DIR, ABORT_NOTEBOOK), JSON.stringify({
    cells: [cell('import "fmt"\n\nfmt.Println("first")'), cell('var broken int = "text"'), cell('fmt.Println("third")'), cell('fmt.Println("fourth")')],
    metadata: { kernelspec: { display_name: 'Go (gobayes)', language: 'go', name: 'gobayes' } },
    nbformat: 4,
    nbformat_minor: 5,
  }, null, 1));
  await openNotebook(page, ABORT_NOTEBOOK);
  await menu(page, 'Cell', '#run_all_cells');
  await waitForRunAll(page, 60000);
  const states = await cellStates(page);
  const shown = await pageOutputs(page);
  await screenshot(page, 'interaction-run-all-after-error');
  const problems = [];
  if (states[0].prompt !== 1) problems.push(`the first cell shows In [${states[0].prompt}]`);
  if (states[1].prompt !== 2 || shown[1].errors.length !== 1) problems.push(`the failing cell shows In [${states[1].prompt}] and ${shown[1].errors.length} errors`);
  for (const i of [2, 3]) {
    if (states[i].prompt !== null && states[i].prompt !== undefined) problems.push(`cell ${i}, which did not run, shows In [${states[i].prompt}]`);
  }
  expect(problems.length === 0, problems.join('; '));
  return 'the two cells after the error show In [ ]';
}

// Runs one check and prints its line; a failure leaves a screenshot of the page.
async function report(counts, name, page, fn) {
  const start = Date.now();
  const secs = () => ((Date.now() - start) / 1000).toFixed(1);
  try {
    const detail = await fn(page);
    counts.passed++;
    console.log(`ok   ${name} (${secs()} s)${detail ? ': ' + detail : ''}`);
    return true;
  } catch (e) {
    counts.failed++;
    const msg = e instanceof Check ? e.message : (e.stack || String(e)).split('\n').slice(0, 4).join('\n');
    console.log(`FAIL ${name} (${secs()} s): ${msg}`);
    await screenshot(page, `failed-${name.replace(/[^\w.-]+/g, '-')}`).catch(() => {});
    return false;
  }
}

async function main() {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const f of fs.readdirSync(SCREENSHOTS)) if (f.endsWith('.png')) fs.unlinkSync(path.join(SCREENSHOTS, f));
  await waitForServer();
  let files = fs.readdirSync(COMMITTED_DIR).filter((f) => /^\d\d-.*\.ipynb$/.test(f)).sort();
  if (ONLY.length) files = files.filter((f) => ONLY.some((w) => f.includes(w)));

  const context = await chromium.launchPersistentContext(PROFILE_DIR, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const counts = { passed: 0, failed: 0 };
  const newPage = async () => {
    const page = await context.newPage();
    page.on('dialog', (d) => d.dismiss());
    return page;
  };
  try {
    // Before any Run All, so that the copy still holds what was shipped.
    const shipped = files.find((f) => f.startsWith('02-'));
    if (shipped) {
      const page = await newPage();
      await report(counts, `notebook ${path.basename(shipped, '.ipynb')} opened as shipped`, page, (p) => checkShipped(p, shipped, shipped, true));
      await page.close();
      await shutdownKernels();
      const untrusted = await newPage();
      await report(counts, `notebook ${path.basename(shipped, '.ipynb')} opened untrusted`, untrusted,
        (p) => checkShipped(p, `untrusted-${shipped}`, shipped, false));
      await untrusted.close();
      await shutdownKernels();
    }
    const zoomed = files.find((f) => f.startsWith('03-'));
    if (zoomed) {
      const page = await newPage();
      await report(counts, `notebook ${path.basename(zoomed, '.ipynb')} at 150% zoom`, page, (p) => checkZoom(p, zoomed));
      await page.close();
      await shutdownKernels();
    }
    for (const f of files) {
      const page = await newPage();
      await report(counts, `notebook ${path.basename(f, '.ipynb')}`, page, (p) => checkNotebook(p, f));
      await page.close();
      await shutdownKernels();
    }
    if (!ONLY.length || ONLY.includes('interactions')) {
      // The interactions share one page and one kernel: each needs the
      // state the ones before it left.
      const page = await newPage();
      const abortPage = await newPage();
      await report(counts, 'interaction Run All after an error', abortPage, checkRunAllAfterError);
      await abortPage.close();
      await shutdownKernels();
      if (await report(counts, 'interaction setup', page, checkSetup)) {
        await report(counts, 'interaction live progress', page, checkProgress);
        await report(counts, 'interaction interrupt from the toolbar', page, checkInterrupt);
        await report(counts, 'interaction widgets: a slider redraws a plot', page, checkWidgets);
        await report(counts, 'interaction Tab completion', page, checkCompletion);
      }
      await page.close();
      await shutdownKernels();
    }
  } finally {
    await context.close();
  }
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  return counts.failed === 0 && counts.passed > 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (e) => {
  console.log(`tests/browser: ${e.stack || e}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
