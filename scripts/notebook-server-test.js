// notebook-server-test.js: the checks that scripts/notebook-server-test.sh
// runs against a server started by scripts/notebook-server.sh.
//
// Usage: node notebook-server-test.js URL GONB NOTEBOOK SCREENSHOT
//
// URL is what notebook-server.sh printed, GONB the gonb binary the kernelspec
// must run, NOTEBOOK one of notebooks/*.ipynb and SCREENSHOT where to write the
// page's screenshot. Needs playwright-core and ws (NODE_PATH) and Debian's
// /usr/bin/chromium. On success it prints one line per check and, last,
// "kernels: ID..." (the kernels it made the server start, whose processes the
// shell script checks are gone once the server stops); on failure it prints
// the reason and exits 1.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { chromium } = require('playwright-core');
const WebSocket = require('ws');

const [serverURL, gonb, notebookFile, shotFile] = process.argv.slice(2);
if (!shotFile) {
	console.error('usage: node notebook-server-test.js URL GONB NOTEBOOK SCREENSHOT');
	process.exit(2);
}
const url = new URL(serverURL);
const token = url.searchParams.get('token');
const auth = { Authorization: `token ${token}` };
const kernels = [];

// The module path and ring AllReduce's step count at P = 8: 2(P-1) = 14, the
// article's "ring at P = 8 takes 14 steps" (package presets).
const commmodel = 'github.com/inframethod/commlab/commmodel';
const ringSteps = '14';

function fail(msg) {
	throw new Error(msg);
}

// api calls the server's REST API and returns the decoded JSON body.
async function api(method, p, body) {
	const res = await fetch(url.origin + p, {
		method,
		headers: { ...auth, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(60e3),
	});
	const text = await res.text();
	if (!res.ok) fail(`${method} ${p}: HTTP ${res.status}: ${text.slice(0, 300)}`);
	return text ? JSON.parse(text) : null;
}

// The notebook as saved: its cells' sources joined, and its outputs.
function readNotebook(file) {
	const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
	const join = (s) => (Array.isArray(s) ? s.join('') : s);
	return nb.cells.map((c) => ({ type: c.cell_type, source: join(c.source), outputs: c.outputs || [] }));
}

async function checkKernelspec() {
	const specs = await api('GET', '/api/kernelspecs');
	const k = specs.kernelspecs.gonb;
	if (!k) fail(`no gonb kernelspec; the server lists ${Object.keys(specs.kernelspecs)}`);
	if (k.spec.language !== 'go') fail(`gonb kernelspec language ${k.spec.language}, want go`);
	const run = k.spec.argv[0];
	if (!fs.existsSync(run)) fail(`gonb kernelspec runs ${run}, which does not exist`);
	// gonb --install either points the kernelspec at the binary it was run
	// as or copies that binary into the kernel's folder (a fresh install
	// does the latter); either way it must be the GoNB the runner built.
	if (run !== gonb && !fs.readFileSync(run).equals(fs.readFileSync(gonb))) {
		fail(`gonb kernelspec runs ${run}, which is neither ${gonb} nor a copy of it`);
	}
	if (specs.default !== 'gonb') fail(`default kernel ${specs.default}, want gonb`);
	return `gonb kernelspec: ${k.spec.display_name}, ${run}, the default`;
}

// execute runs code in the kernel over its websocket channel and resolves to
// {reply, stdout, stderr, errors} once the kernel is idle again.
function execute(ws, session, code, timeout) {
	const msgID = crypto.randomUUID();
	const msg = {
		header: { msg_id: msgID, msg_type: 'execute_request', session, username: 'test', version: '5.3', date: new Date().toISOString() },
		parent_header: {},
		metadata: {},
		content: { code, silent: false, store_history: true, user_expressions: {}, allow_stdin: false, stop_on_error: true },
		channel: 'shell',
		buffers: [],
	};
	return new Promise((resolve, reject) => {
		const got = { reply: null, idle: false, stdout: '', stderr: '', errors: [] };
		const timer = setTimeout(() => {
			ws.off('message', onMessage);
			reject(new Error(`no answer to ${JSON.stringify(code.slice(0, 60))} within ${timeout / 1e3} s; stdout ${JSON.stringify(got.stdout)}, stderr ${JSON.stringify(got.stderr)}`));
		}, timeout);
		function onMessage(data) {
			const m = JSON.parse(data.toString());
			if (m.parent_header.msg_id !== msgID) return;
			const t = m.header.msg_type;
			if (t === 'stream') got[m.content.name] += m.content.text;
			else if (t === 'error') got.errors.push(`${m.content.ename}: ${m.content.evalue}`);
			else if (t === 'execute_reply') got.reply = m.content;
			else if (t === 'status' && m.content.execution_state === 'idle') got.idle = true;
			if (got.reply && got.idle) {
				clearTimeout(timer);
				ws.off('message', onMessage);
				resolve(got);
			}
		}
		ws.on('message', onMessage);
		ws.send(JSON.stringify(msg));
	});
}

async function checkKernel(cells) {
	// The notebooks' first-cell recipe, taken from the notebook itself.
	const recipe = cells.find((c) => c.type === 'code' && c.source.includes('go mod edit'));
	if (!recipe || !recipe.source.includes('-replace=github.com/inframethod/commlab=')) {
		fail(`${notebookFile}: no code cell with the go mod edit -replace recipe`);
	}
	const k = await api('POST', '/api/kernels', { name: 'gonb' });
	kernels.push(k.id);
	if (k.name !== 'gonb') fail(`POST /api/kernels started ${k.name}, want gonb`);
	const session = crypto.randomUUID();
	const ws = new WebSocket(`ws://${url.host}/api/kernels/${k.id}/channels?session_id=${session}`, { headers: auth });
	await new Promise((resolve, reject) => {
		ws.once('open', resolve);
		ws.once('error', reject);
	});
	try {
		const setup = await execute(ws, session, recipe.source, 120e3);
		if (setup.reply.status !== 'ok' || setup.errors.length) {
			fail(`the recipe cell: ${setup.reply.status} ${setup.errors} ${setup.stderr}`);
		}
		const code = `import (\n\t"fmt"\n\n\t"${commmodel}"\n)\n\n%%\nfmt.Println(commmodel.Ring{}.Cost(8, 1e6).Steps)\n`;
		// The first build of commmodel in this kernel's module; warm caches make it seconds.
		const run = await execute(ws, session, code, 300e3);
		if (run.reply.status !== 'ok' || run.errors.length) {
			fail(`the commmodel cell: ${run.reply.status} ${run.errors} ${run.stderr}`);
		}
		if (run.stdout.trim() !== ringSteps) {
			fail(`the commmodel cell printed ${JSON.stringify(run.stdout)}, want ${ringSteps} (ring AllReduce at P = 8)`);
		}
	} finally {
		ws.close();
	}
	await api('DELETE', `/api/kernels/${k.id}`);
	const left = await api('GET', '/api/kernels');
	if (left.some((x) => x.id === k.id)) fail(`kernel ${k.id} still listed after DELETE`);
	return `kernel ${k.id}: Ring{}.Cost(8, 1e6).Steps printed ${ringSteps}, then shut down`;
}

// decodePNG returns {width, height, rgba} for an 8-bit, non-interlaced RGB
// or RGBA PNG (what Chromium's screenshots are).
function decodePNG(buf) {
	const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	if (!buf.subarray(0, 8).equals(sig)) fail('screenshot is not a PNG');
	let width, height, channels;
	const idat = [];
	for (let off = 8; off < buf.length; ) {
		const len = buf.readUInt32BE(off);
		const type = buf.toString('latin1', off + 4, off + 8);
		const data = buf.subarray(off + 8, off + 8 + len);
		if (type === 'IHDR') {
			width = data.readUInt32BE(0);
			height = data.readUInt32BE(4);
			const depth = data[8], color = data[9], interlace = data[12];
			if (depth !== 8 || (color !== 2 && color !== 6) || interlace !== 0) {
				fail(`screenshot PNG has bit depth ${depth}, colour type ${color}, interlace ${interlace}`);
			}
			channels = color === 6 ? 4 : 3;
		} else if (type === 'IDAT') {
			idat.push(data);
		}
		off += 12 + len;
	}
	const raw = zlib.inflateSync(Buffer.concat(idat));
	const stride = width * channels;
	const px = Buffer.alloc(stride * height);
	for (let y = 0; y < height; y++) {
		const filter = raw[y * (stride + 1)];
		const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
		for (let x = 0; x < stride; x++) {
			const a = x >= channels ? px[y * stride + x - channels] : 0;
			const b = y > 0 ? px[(y - 1) * stride + x] : 0;
			const c = x >= channels && y > 0 ? px[(y - 1) * stride + x - channels] : 0;
			let pred;
			switch (filter) {
				case 0: pred = 0; break;
				case 1: pred = a; break;
				case 2: pred = b; break;
				case 3: pred = (a + b) >> 1; break;
				case 4: {
					const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
					pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
					break;
				}
				default: fail(`screenshot PNG row ${y} has filter ${filter}`);
			}
			px[y * stride + x] = (line[x] + pred) & 0xff;
		}
	}
	const rgba = Buffer.alloc(width * height * 4, 0xff);
	for (let i = 0; i < width * height; i++) px.copy(rgba, i * 4, i * channels, i * channels + 3);
	return { width, height, rgba };
}

// region counts, inside the box, the dark pixels (luminance below 96: text),
// the light ones (above 224: background), and the distinct colours.
function region(img, box) {
	let dark = 0, light = 0, n = 0;
	const colours = new Set();
	const x0 = Math.max(0, Math.floor(box.x)), x1 = Math.min(img.width, Math.ceil(box.x + box.width));
	const y0 = Math.max(0, Math.floor(box.y)), y1 = Math.min(img.height, Math.ceil(box.y + box.height));
	for (let y = y0; y < y1; y++) {
		for (let x = x0; x < x1; x++) {
			const i = (y * img.width + x) * 4;
			const r = img.rgba[i], g = img.rgba[i + 1], b = img.rgba[i + 2];
			const lum = 0.299 * r + 0.587 * g + 0.114 * b;
			if (lum < 96) dark++;
			if (lum > 224) light++;
			colours.add((r << 16) | (g << 8) | b);
			n++;
		}
	}
	return { n, dark, light, colours: colours.size };
}

async function checkPage(cells) {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'commlab-chromium-'));
	const viewport = { width: 1280, height: 900 };
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: '/usr/bin/chromium',
		headless: true,
		viewport,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	try {
		const page = context.pages()[0] || (await context.newPage());
		const name = path.basename(notebookFile);
		await page.goto(`${url.origin}/notebooks/${encodeURIComponent(name)}?token=${token}`, { timeout: 60e3 });
		// The classic notebook builds its cells in the browser from the saved JSON.
		await page.waitForFunction((n) => document.querySelectorAll('#notebook-container .cell').length === n,
			cells.length, { timeout: 60e3 });
		const title = cells[0].source.split('\n')[0].replace(/^#+\s*/, '');
		const h1 = page.locator('#notebook-container .text_cell.rendered h1').first();
		await h1.waitFor({ timeout: 60e3 });
		const shown = (await h1.innerText()).replace(/\s*¶\s*$/, '').trim();
		if (shown !== title) fail(`the page's first heading is ${JSON.stringify(shown)}, want ${JSON.stringify(title)}`);
		const pngs = cells.flatMap((c) => c.outputs).filter((o) => o.data && o.data['image/png']).length;
		await page.waitForFunction((n) => {
			const imgs = [...document.querySelectorAll('#notebook-container .output_png img')];
			return imgs.length === n && imgs.every((i) => i.complete && i.naturalWidth > 0);
		}, pngs, { timeout: 60e3 });
		await page.locator('#kernel_indicator .kernel_indicator_name').filter({ hasText: 'Go (gonb)' }).waitFor({ timeout: 60e3 });
		// Every table the notebook shows (nbshow.ShowTable's text/html) is
		// rendered as a <table> with the saved output's rows.
		const html = cells.flatMap((c) => c.outputs).filter((o) => o.data && o.data['text/html'])
			.map((o) => (Array.isArray(o.data['text/html']) ? o.data['text/html'].join('') : o.data['text/html']))
			.filter((h) => h.includes('<table'));
		const wantRows = html.map((h) => (h.match(/<tr>/g) || []).length);
		if (wantRows.length === 0) fail(`${name} shows no table; want at least one rendered <table>`);
		const gotRows = await page.evaluate(() =>
			[...document.querySelectorAll('#notebook-container .output_html table')].map((t) => t.querySelectorAll('tr').length));
		if (JSON.stringify(gotRows) !== JSON.stringify(wantRows)) {
			fail(`rendered tables have ${JSON.stringify(gotRows)} rows, the saved outputs ${JSON.stringify(wantRows)}`);
		}

		const shot = await page.screenshot({ path: shotFile });
		const img = decodePNG(shot);
		if (img.width !== viewport.width || img.height !== viewport.height) {
			fail(`screenshot is ${img.width}x${img.height}, want ${viewport.width}x${viewport.height}`);
		}
		const box = await h1.boundingBox();
		if (!box || box.y + box.height > img.height) fail(`the first heading is not in view: ${JSON.stringify(box)}`);
		// The heading's box shows text: dark glyph pixels on a light background.
		const head = region(img, box);
		if (head.dark < 0.02 * head.n || head.light < 0.3 * head.n) {
			fail(`the heading's ${head.n} pixels in the screenshot: ${head.dark} dark, ${head.light} light; not rendered text`);
		}
		// And the page as a whole is not blank: many colours (text, toolbar, cells).
		const all = region(img, { x: 0, y: 0, width: img.width, height: img.height });
		if (all.colours < 64) fail(`the screenshot has ${all.colours} colours; a rendered notebook has hundreds`);
		const sessions = await api('GET', '/api/sessions');
		const s = sessions.find((x) => x.path === name || (x.notebook && x.notebook.path === name));
		if (!s || s.kernel.name !== 'gonb') fail(`no gonb session for ${name}: ${JSON.stringify(sessions)}`);
		kernels.push(s.kernel.id);
		return `page ${name}: ${cells.length} cells, heading "${title}", ${pngs} images, ${gotRows.length} tables of ${gotRows.join(', ')} rows; screenshot ${img.width}x${img.height}, ` +
			`${all.colours} colours, heading ${Math.round((100 * head.dark) / head.n)}% dark pixels (${shotFile})`;
	} finally {
		await context.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
}

async function main() {
	const cells = readNotebook(notebookFile);
	for (const check of [checkKernelspec, () => checkKernel(cells), () => checkPage(cells)]) {
		const start = Date.now();
		const what = await check();
		console.log(`ok  ${what} (${((Date.now() - start) / 1e3).toFixed(1)} s)`);
	}
	console.log(`kernels: ${kernels.join(' ')}`);
}

main().catch((err) => {
	console.error(`notebook-server-test: FAIL: ${err.message}`);
	process.exit(1);
});
