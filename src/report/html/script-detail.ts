/**
 * The part of the page's script that builds a case's details when it is opened: in full
 * (prompt, expectations, drift, response, answer with its word diff against the baseline,
 * recent nights, distinct answers) or, for a brief case, its counts and where the rest is.
 * It runs inside the same function as the list (script.ts) and uses its `el`, `data`,
 * `systems`, `diffMode` and `wordDiff`; only function declarations live here.
 */
export const DETAIL_SCRIPT = String.raw`
function section(title) {
  const s = el('section', 'part');
  s.append(el('h3', null, title));
  return s;
}
function pair(dl, term, value, cls) {
  if (value === null || value === undefined || value === '') return;
  dl.append(el('dt', null, term), el('dd', cls || null, value));
}
// The recorded fields' rows that stand here: beside what served the answer, its usage or its outcome.
function recorded(dl, c, at) {
  c.recorded.forEach(function (r) { if (r.at === at) pair(dl, r.term, r.text, r.mark); });
}
function usageText(u) {
  if (!u) return null;
  const t = [u.prompt_tokens, u.completion_tokens, u.total_tokens].map(function (n) { return n === null || n === undefined ? '?' : n; });
  return t[0] + ' prompt + ' + t[1] + ' completion = ' + t[2] + ' tokens' + (typeof u.cost === 'number' ? ' · cost $' + u.cost : '');
}

function pct(x) { return Math.round(x * 100) + '%'; }
function passRate(c) {
  const p = c.pass_rate;
  return c.samples.passed + '/' + c.samples.sent + ' pass (' + pct(p.rate) + ', 95% CI ' + pct(p.low) + '–' + pct(p.high) + ')' +
    (p.baseline ? ' vs baseline ' + p.baseline.pass + '/' + p.baseline.total : ', no baseline samples') +
    (p.p === null ? '' : ', p = ' + p.p) + ': ' + p.verdict + (p.weak_baseline && p.baseline ? ' (weak baseline: ' + p.baseline.total + (p.baseline.total === 1 ? ' sample)' : ' samples)') : '') + (c.status === 'fail' ? ' — fails the run' : ' — does not fail the run');
}
function samplesText(s) {
  const parts = [s.passed + ' passed'];
  if (s.failed) parts.push(s.failed + ' failed');
  if (s.errored) parts.push(s.errored + ' errored');
  if (s.not_run) parts.push(s.not_run + ' not run');
  return s.sent + ' sent of ' + s.planned + ' planned: ' + parts.join(', ');
}

// A brief case's counts, and where the rest of it is.
function briefDetail(c) {
  const body = el('div', 'detail brief');
  body.append(el('p', 'note', 'Passed every sample, nothing changed' + (c.new_case ? ' (a new case: no baseline yet)' : ' against the baseline') + ': this page keeps its counts only. Its prompt, answer and checks are in report.json beside this page; every sample is in results.jsonl.'));
  const dl = el('dl', 'meta');
  pair(dl, 'model', c.model === null ? 'none reported' : c.model);
  pair(dl, 'samples', c.passed + ' of ' + c.sent + ' passed');
  pair(dl, 'tokens', c.tokens === null ? 'not reported' : c.tokens + ' total');
  pair(dl, 'latency', c.latency_ms === null ? 'n/a' : (c.sent > 1 ? 'p50 ' : '') + c.latency_ms + ' ms');
  if (c.ttft_ms !== undefined) pair(dl, 'time to first token', c.ttft_ms === null ? 'n/a' : (c.sent > 1 ? 'p50 ' : '') + c.ttft_ms + ' ms');
  body.append(dl);
  return body;
}

function detail(c) {
  const body = el('div', 'detail');
  if (c.truncated) body.append(el('p', 'note', 'Texts in this case are shortened to ' + data.text_limit + ' characters; report.json holds them whole.'));

  const prompt = section('Prompt');
  // The suite's system prompt is on the page once; it stands in front of every case's messages.
  const messages = Object.prototype.hasOwnProperty.call(systems, c.suite) ? [{ role: 'system', content: systems[c.suite] }].concat(c.messages) : c.messages;
  messages.forEach(function (m) {
    const msg = el('div', 'msg');
    msg.append(el('span', 'role', m.role), el('pre', 'text', m.content));
    prompt.append(msg);
  });
  if (messages.length === 0) prompt.append(el('p', 'muted', 'not recorded'));

  const checks = section('Expectations');
  const ul = el('ul', 'checks');
  c.checks.forEach(function (k, i) {
    const li = el('li', k.pass ? 'ok' : 'bad');
    const tally = c.samples.sent > 1 && c.check_passes[i] !== undefined ? ' (' + c.check_passes[i] + '/' + c.samples.sent + ' samples pass)' : '';
    li.append(el('span', 'mark', k.pass ? '✓' : '✗'), el('b', null, k.type), el('span', null, ' ' + k.message + tally));
    ul.append(li);
  });
  if (c.checks.length === 0) checks.append(el('p', 'muted', c.status === 'error' || c.status === 'not_run' ? 'not checked (no answer)' : 'no expectations'));
  else checks.append(ul);

  const meta = section('Response');
  const dl = el('dl', 'meta');
  pair(dl, 'requested model', c.requested_model);
  pair(dl, 'concrete model', c.model === null ? 'none reported' : c.model, c.model !== null && c.model !== c.requested_model ? 'warn' : null);
  if (c.models.length > 1) pair(dl, 'models (all samples)', c.models.join(', '), 'warn');
  recorded(dl, c, 'served');
  pair(dl, 'service', c.service);
  pair(dl, 'samples', samplesText(c.samples));
  pair(dl, 'finish_reason', c.finish_reason === null ? 'none' : c.finish_reason, c.finish_reason !== null && c.finish_reason !== 'stop' ? 'warn' : null);
  pair(dl, 'usage', usageText(c.usage) || 'not reported');
  recorded(dl, c, 'usage');
  pair(dl, 'latency', c.latency_ms === null ? 'n/a' : (c.samples.sent > 1 ? 'p50 ' + c.latency_ms.p50 + ' ms · p95 ' + c.latency_ms.p95 + ' ms · max ' + c.latency_ms.max + ' ms' : c.latency_ms.p50 + ' ms') + (c.wait_ms ? ' (+' + c.wait_ms + ' ms waiting between attempts)' : ''));
  pair(dl, 'attempts', c.attempts);
  if (c.pass_rate) pair(dl, 'pass rate (repeats)', passRate(c), c.status === 'fail' ? 'bad' : c.pass_rate.verdict === 'stable' ? null : 'warn');
  recorded(dl, c, 'outcome');
  if (c.error) {
    pair(dl, 'error kind', c.error.kind, 'bad');
    pair(dl, 'error at', c.error_place, 'bad');
    pair(dl, 'HTTP status', c.error.http_status === null ? 'none (no response)' : c.error.http_status, 'bad');
    pair(dl, 'error type', c.error.type);
    pair(dl, 'error code', c.error.code);
    pair(dl, 'error model', c.error.model);
    pair(dl, 'error message', c.error.message, 'bad');
  }
  pair(dl, 'cache', c.cache_status);
  pair(dl, 'response id', c.response_id);
  pair(dl, 'started', c.started_at);
  if (c.redacted) pair(dl, 'redacted', 'a key value was found in this result and replaced', 'warn');
  meta.append(dl);

  body.append(prompt, checks);
  if (c.drift.length > 0) {
    const drift = section('Drift against the baseline');
    const dul = el('ul', 'drift');
    c.drift.forEach(function (d) {
      const li = el('li', d.severity === 'fail' ? 'bad' : d.severity === 'warn' ? 'warn' : 'info');
      li.append(el('span', 'badge ' + (d.severity === 'fail' ? 'bad' : d.severity === 'warn' ? 'warn' : 'muted'), d.severity), el('b', null, d.kind), el('span', null, ' ' + d.message));
      dul.append(li);
    });
    drift.append(dul);
    body.append(drift);
  }
  // A conversation's transcript comes before what its last answer was.
  if (c.transcript) body.append(conversation(c));
  body.append(meta, answer(c));
  // A later sample that failed with some content before its error: what it had shown.
  if (c.partial && c.partial.content !== null) {
    const later = section('Partial answer of sample ' + c.partial.sample);
    later.append(el('p', 'muted', partialNote(c)), el('pre', 'text', c.partial.content));
    body.append(later);
  }
  if (c.tool_calls || c.baseline_tool_calls) body.append(toolCalls(c));
  if (c.history) body.append(nights(c));
  if (c.answers.length > 1) {
    const distinct = section('Distinct answers (' + c.answers.length + (c.other_answers ? ' shown, ' + c.other_answers + ' more samples differ' : '') + ')');
    c.answers.forEach(function (a) {
      const msg = el('div', 'msg');
      msg.append(el('span', 'role', a.count + '× ' + a.status), el('pre', 'text', a.content === null ? '(no content)' : a.content));
      distinct.append(msg);
    });
    body.append(distinct);
  }
  return body;
}

// A changed case's recent nights (from the history): each links to that night's report, opened at this case.
function nights(c) {
  const s = section('Recent nights');
  if (c.history.since) s.append(el('p', null, 'Since ' + c.history.since.started_at.slice(0, 10) + ' (run ' + c.history.since.run_id + ').'));
  const list = el('ol', 'nights');
  c.history.nights.forEach(function (n) {
    const li = el('li', n.status === 'pass' ? 'ok' : n.status === 'not_run' ? 'muted' : 'bad');
    const link = el('a', null, n.started_at.slice(0, 10) + ' ' + n.status + ' ' + n.passes + '/' + n.samples);
    link.href = '../' + encodeURIComponent(n.run_id) + '/report.html#' + encodeURIComponent(c.id);
    li.append(link);
    list.append(li);
  });
  s.append(list);
  return s;
}

function callList(calls, more) {
  const list = el('div', 'calls');
  calls.forEach(function (t) {
    const msg = el('div', 'msg');
    msg.append(el('span', 'role', t.name), el('pre', 'text', t.arguments));
    if (t.invalid) msg.append(el('p', 'bad', 'invalid: ' + t.invalid));
    list.append(msg);
  });
  if (more > 0) list.append(el('p', 'note', 'and ' + more + ' more calls, not shown here: report.json and results.jsonl hold them all'));
  return list;
}
function toolCalls(c) {
  const s = section(c.transcript ? 'Tool calls of the last answer' : 'Tool calls');
  const more = c.more_calls || [0, 0];
  if (c.tool_calls) s.append(callList(c.tool_calls, more[0]));
  else s.append(el('p', 'muted', 'no tool call (a text answer)'));
  if (c.baseline_tool_calls) { s.append(el('h4', null, 'baseline calls')); s.append(callList(c.baseline_tool_calls, more[1])); }
  return s;
}

// A conversation as a transcript (TRANSCRIPT_SCRIPT draws it); beside it, when tonight's
// trajectory changed against the baseline, the baseline's.
function conversation(c) {
  const t = c.transcript;
  const b = c.baseline_trajectory;
  const requests = requestsOf(t);
  const s = section('Conversation (' + requests + (requests === 1 ? ' request' : ' requests') + (t.turns.length > 1 ? ', ' + t.turns.length + ' turns' : '') + ')');
  const stopped = c.error ? 'stopped' + (c.error_place ? ' at ' + c.error_place : '') + ': ' + c.error.kind + ': ' + c.error.message : null;
  const tonight = transcriptColumn(t, { title: b ? 'tonight' : null, other: b, stopped: stopped });
  if (!b) { s.append(tonight); return s; }
  const answer = c.baseline === 'text' ? ['baseline answer', c.baseline_content || ''] : c.baseline === 'same' ? ['baseline answer', null] : null;
  const sides = el('div', 'split sides');
  sides.append(tonight, transcriptColumn(b, { title: 'baseline', other: t, answer: answer }));
  s.append(sides);
  return s;
}

// What a partial answer is: the content that came before the error, as the application showed it.
function partialNote(c) {
  return 'What arrived before the error (' + c.error.kind + '), kept as it came: an application had shown this much.';
}
function answer(c) {
  const partial = c.partial !== null && c.partial.content === null;
  const s = section(partial ? 'Answer (partial)' : 'Answer');
  if (partial) s.append(el('p', 'partial warn', partialNote(c)));
  if (c.content === null) {
    s.append(el('p', 'muted', 'no content'));
    if (c.baseline === 'text') { s.append(el('h4', null, 'baseline answer')); s.append(el('pre', 'text', c.baseline_content)); }
    return s;
  }
  if (c.baseline !== 'text') {
    s.append(el('p', 'muted', c.baseline === 'same' ? 'Same as the baseline answer.' : 'No baseline answer to compare with.'));
    s.append(el('pre', 'text', c.content));
    return s;
  }
  const ops = wordDiff(c.baseline_content || '', c.content);
  const tools = el('div', 'difftools');
  const modes = [['split', 'side by side'], ['inline', 'inline']];
  const view = el('div', 'diff');
  function draw() {
    view.replaceChildren(diffMode === 'split' ? split(ops) : inline(ops));
    Array.prototype.forEach.call(tools.children, function (btn) { btn.setAttribute('aria-pressed', String(btn.dataset.mode === diffMode)); });
  }
  modes.forEach(function (m) {
    const btn = el('button', 'mode', m[1]);
    btn.type = 'button';
    btn.dataset.mode = m[0];
    btn.addEventListener('click', function () { diffMode = m[0]; draw(); });
    tools.append(btn);
  });
  const legend = el('span', 'legend');
  legend.append(el('del', null, 'baseline'), document.createTextNode(' '), el('ins', null, 'current'));
  tools.append(legend);
  s.append(tools, view);
  draw();
  return s;
}
`;
