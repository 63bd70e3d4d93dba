// SPDX-License-Identifier: MIT
// hwprof's flame graph: reads the profile from the page (the format is
// described at the top of lib/export/export-html.c), draws the call tree of
// one event as an icicle, zooms into a frame on click, highlights the
// frames a search matches with their share, and switches between events.
// '#search=RE' in the address searches at once. With '#selftest' it checks
// itself and writes the results into <pre id="selftest">
// (tests/cli/test_html.py reads them).
'use strict';

(function () {
	const started = performance.now();	// since the page was asked for
	const ROW = 17;			// px a frame, as .frame's height
	const MIN_PX = 0.5;		// narrower frames are not drawn
	const data = JSON.parse(document.getElementById('profile').textContent);
	const $ = (id) => document.getElementById(id);
	const graph = $('graph'), tip = $('tip');
	const trees = [];		// by event, built on first use
	let tree = null;		// the event shown
	let zoomed = null;		// the frame that spans the width
	let query = null;		// the search's RegExp, or null
	const elements = new Map();	// drawn frame -> its element

	// The preorder list of nodes as objects: {f, period, samples, depth,
	// x (its offset in its root's period), parent, children, hidden}.
	function buildTree(ev) {
		const n = ev.nodes;
		let at = 0, depth = 0;

		function node(parent, d, x) {
			const nd = { f: n[at], period: n[at + 1], samples: n[at + 2], depth: d, x,
				     parent, children: [], hidden: 0 };
			const count = n[at + 3];

			at += 4;
			depth = Math.max(depth, d);
			if (nd.f === -2) {
				nd.hidden = count;
				return nd;
			}
			let cx = x;
			for (let i = 0; i < count; i++) {
				const c = node(nd, d + 1, cx);

				cx += c.period;
				nd.children.push(c);
			}
			return nd;
		}
		const root = node(null, 0, 0);
		return { ev, root, depth };
	}

	function name(nd) {
		if (nd.f === -1)
			return 'all ' + tree.ev.event;
		if (nd.f === -2)
			return nd.hidden + ' frame' + (nd.hidden === 1 ? '' : 's') + ' under ' +
				100 * data.min_share + '% hidden';
		return tree.ev.funcs[nd.f][0];
	}

	function percentOf(part, whole) {
		return (whole ? 100 * part / whole : 0).toFixed(2) + '%';
	}

	// Warm colours as flamegraph.pl's, from the name, so that a function
	// keeps its colour across zooms and events.
	function colour(s) {
		let h = 0;

		for (let i = 0; i < s.length; i++)
			h = (h * 31 + s.charCodeAt(i)) >>> 0;
		return 'hsl(' + (h % 50) + ', ' + (70 + (h >> 8) % 25) + '%, ' +
			(55 + (h >> 16) % 15) + '%)';
	}

	function matches(nd) {
		return query !== null && nd.f >= 0 && query.test(tree.ev.funcs[nd.f][0]);
	}

	function frameElement(nd, left, width, ancestor) {
		const el = document.createElement('div');
		const label = name(nd);

		el.className = 'frame' + (ancestor ? ' ancestor' : '') +
			(nd.f === -2 ? ' hidden-frames' : '') + (matches(nd) ? ' match' : '');
		el.style.left = left + '%';
		el.style.width = width + '%';
		el.style.top = nd.depth * ROW + 'px';
		if (nd.f !== -2)
			el.style.background = nd.f === -1 ? 'hsl(30, 15%, 75%)' : colour(label);
		el.textContent = label;
		el.frame = nd;
		elements.set(nd, el);
		return el;
	}

	function render() {
		const width = graph.clientWidth;
		const frag = document.createDocumentFragment();
		const z = zoomed;

		elements.clear();
		graph.textContent = '';
		for (let a = z.parent; a; a = a.parent)
			frag.appendChild(frameElement(a, 0, 100, true));
		(function draw(nd) {
			const share = z.period ? nd.period / z.period : 1;

			if (nd !== z && share * width < MIN_PX)
				return;
			frag.appendChild(frameElement(nd, z.period ? 100 * (nd.x - z.x) / z.period : 0,
						      100 * share, false));
			nd.children.forEach(draw);
		})(z);
		graph.style.height = (tree.depth + 1) * ROW + 'px';
		graph.appendChild(frag);
	}

	function zoom(nd) {
		if (!nd || nd.f === -2)
			return;
		zoomed = nd;
		render();
	}

	function tipText(nd) {
		const ev = tree.ev, lines = [name(nd)];

		if (nd.f >= 0 && ev.funcs[nd.f][1])
			lines.push(ev.funcs[nd.f][1] + ':' + ev.funcs[nd.f][2]);
		lines.push(nd.samples + ' samples, ' + percentOf(nd.period, ev.period) +
			   (ev.unit === 'nanoseconds' ? ', ' + (nd.period / 1e6).toFixed(1) + ' ms' : '') +
			   (zoomed !== tree.root ? ' (' + percentOf(nd.period, zoomed.period) +
			    ' of the zoomed frame)' : ''));
		return lines.join('\n');
	}

	function showTip(e) {
		const el = e.target.closest('.frame');

		if (!el) {
			tip.hidden = true;
			return;
		}
		tip.textContent = tipText(el.frame);
		tip.hidden = false;
		tip.style.left = Math.min(e.clientX + 12, innerWidth - tip.offsetWidth - 4) + 'px';
		tip.style.top = e.clientY + 16 + 'px';
	}

	// The stacks that hold a match, each once: the matching frames that
	// have no matching ancestor. A function of the hidden frames may match
	// too: one function alone has its exact share in funcs; for several,
	// the hidden frames not under a match may hold more.
	function searchShare() {
		const ev = tree.ev, funcs = new Set();
		let period = 0, samples = 0, unsure = 0;

		(function walk(nd) {
			if (nd.f === -2) {
				unsure += nd.period;
				return;
			}
			if (matches(nd)) {
				funcs.add(nd.f);
				period += nd.period;
				samples += nd.samples;
				return;
			}
			nd.children.forEach(walk);
		})(tree.root);
		if (funcs.size === 1) {
			const f = ev.funcs[funcs.values().next().value];

			return { period: f[3], samples: f[4], functions: 1, unsure: 0 };
		}
		return { period, samples, functions: funcs.size, unsure };
	}

	function search() {
		const text = $('search').value;

		query = null;
		if (text) {
			try {
				query = new RegExp(text);
			} catch (e) {	// not a regular expression: the text itself
				query = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
			}
		}
		render();
		if (!query) {
			$('matched').textContent = '';
			return null;
		}
		const s = searchShare(), ev = tree.ev;
		$('matched').textContent = 'Matched: ' + percentOf(s.period, ev.period) + ', ' +
			s.samples + ' samples, in ' + s.functions + ' function' +
			(s.functions === 1 ? '' : 's') +
			(s.unsure ? ' (and perhaps up to ' + percentOf(s.unsure, ev.period) +
			 ' more in hidden frames)' : '');
		return s;
	}

	function showEvent(i) {
		trees[i] = trees[i] || buildTree(data.events[i]);
		tree = trees[i];
		zoomed = tree.root;
		const ev = tree.ev;
		document.title = ev.event + ' of ' + data.input + ' - hwprof flame graph';
		$('title').textContent = 'hwprof flame graph: ' + ev.event + ' of ' + data.input +
			(data.host ? ' (' + data.host + ')' : '');
		$('summary').textContent = ev.samples + ' samples' +
			(ev.callchains ? '' : ', without call chains (record -g): one level a function') +
			(ev.hidden_frames ? '; ' + ev.hidden_frames + ' frames under ' +
			 100 * data.min_share + '% hidden (their samples count in the frames ' +
			 'above them)' : '') +
			'. Click a frame to zoom, the root or Esc to go back.' +
			(data.note ? ' ' + data.note : '');
		search();
	}

	function setUp() {
		const select = $('event');

		data.events.forEach((ev, i) => {
			const o = document.createElement('option');

			o.value = i;
			o.textContent = ev.event + ' (' + ev.samples + ' samples)';
			select.appendChild(o);
		});
		select.hidden = data.events.length < 2;
		select.addEventListener('change', () => showEvent(+select.value));
		$('search').addEventListener('input', search);
		$('reset').addEventListener('click', () => zoom(tree.root));
		document.addEventListener('keydown', (e) => {
			if (e.key === 'Escape')
				zoom(tree.root);
		});
		graph.addEventListener('click', (e) => {
			const el = e.target.closest('.frame');

			if (el)
				zoom(el.frame === zoomed ? tree.root : el.frame);
		});
		graph.addEventListener('mousemove', showTip);
		graph.addEventListener('mouseleave', () => { tip.hidden = true; });
		window.addEventListener('resize', render);
		showEvent(0);
	}

	// ---- #selftest[&search=RE][&zoom=NAME]: what a test can only see in a
	// browser, measured in the page and written out as JSON.
	function selftest(params) {
		const out = { checks: [], scripts: document.scripts.length,
			      timing: { script_ms: started, ready_ms: ready } };
		const check = (what, ok, detail) => out.checks.push({ what, ok: !!ok, detail });
		const width = () => graph.getBoundingClientRect().width;
		const rect = (nd) => elements.get(nd).getBoundingClientRect();
		const click = (el) => el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
		const root = tree.root;

		check('the root spans the graph', Math.abs(rect(root).width - width()) < 1,
		      rect(root).width + ' of ' + width() + ' px');
		check('the root is 100%', tipText(root).includes(' 100.00%'), tipText(root));
		const want = params.get('zoom');
		const target = [...elements.keys()].find((nd) => nd !== root && nd.f >= 0 &&
			(want ? name(nd) === want : nd.period < root.period));
		check('a frame to click', target, want);
		if (target) {
			const before = rect(target).width;

			click(elements.get(target));
			out.zoom = { name: name(target), before, after: rect(target).width,
				     width: width(), tip: tipText(target) };
			check('the clicked frame spans the graph',
			      Math.abs(rect(target).width - width()) < 1 && before < width() - 1,
			      before + ' then ' + rect(target).width + ' of ' + width() + ' px');
			check('its callers stay, dimmed',
			      elements.get(root).classList.contains('ancestor'));
			click(elements.get(root));
			check('a click on the root zooms out', zoomed === root &&
			      Math.abs(rect(target).width - before) < 1, rect(target).width);
		}
		if (params.has('search')) {
			$('search').value = params.get('search');
			const s = search();
			out.search = { query: params.get('search'), text: $('matched').textContent,
				       highlighted: graph.querySelectorAll('.match').length,
				       names: [...graph.querySelectorAll('.match')].map(
					       (el) => el.textContent).filter((v, i, a) => a.indexOf(v) === i),
				       ...s };
			check('search matched', s.functions > 0, out.search.text);
		}
		out.events = data.events.map((ev, i) => {
			$('event').value = i;
			$('event').dispatchEvent(new Event('change'));
			return { event: ev.event, root: tipText(tree.root), samples: tree.root.samples,
				 period: tree.root.period, drawn: elements.size,
				 hidden_frames: ev.hidden_frames, summary: $('summary').textContent };
		});
		check('every event shows its own root', out.events.every((e, i) =>
			e.samples === data.events[i].samples && e.root.startsWith('all ' + e.event)));
		showEvent(0);
		out.ok = out.checks.every((c) => c.ok);
		$('selftest').textContent = JSON.stringify(out, null, 1);
		$('selftest').hidden = false;
	}

	const params = new URLSearchParams(location.hash.slice(1));

	setUp();
	const ready = performance.now();
	if (params.has('search') && !params.has('selftest')) {	// a link to a search
		$('search').value = params.get('search');
		search();
	}
	if (params.has('selftest')) {
		try {
			selftest(params);
		} catch (e) {
			$('selftest').textContent = JSON.stringify({ ok: false, error: String(e),
								    stack: e.stack });
		}
	}
})();
