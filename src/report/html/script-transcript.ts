/**
 * The part of a page's script that draws a conversation's transcript (report.html's
 * data.ts `transcriptOf` makes it): each turn's user message, its requests — what served
 * each, how it finished, the calls its answer made (→) with the results given (←) — and
 * its reply. A column may be drawn against another (the baseline's, the reference's): its
 * requests that called other tools than the other's request of that number are marked.
 * report.html and compare.html inline it; it uses their `el`. Every text goes in through
 * textContent.
 */
export const TRANSCRIPT_SCRIPT = String.raw`
function requestsOf(t) {
  return t.turns.reduce(function (n, turn) { return n + turn.steps.length; }, 0) + t.more_steps;
}
function stepsByNumber(t) {
  const out = new Map();
  t.turns.forEach(function (turn) { turn.steps.forEach(function (x) { out.set(x.n, x); }); });
  return out;
}
function toolsOf(x) { return x ? x.calls.map(function (k) { return k.tool; }).join(' ') : null; }
// o.title: the column's heading (none: no heading); o.other: a transcript to mark its requests
// against; o.answer: [label, text] of a final answer the transcript does not hold (text null:
// the same as the other side's); o.stopped: why it stopped, in red at its end.
function transcriptColumn(t, o) {
  const col = el('div', 'transcript');
  if (o.title) {
    const n = requestsOf(t);
    col.append(el('h4', null, o.title + ' · ' + n + (n === 1 ? ' request' : ' requests')));
  }
  const theirs = o.other ? stepsByNumber(o.other) : null;
  t.turns.forEach(function (turn, i) {
    const box = el('div', 'turn');
    if (t.turns.length > 1 || turn.user !== null) {
      const user = el('div', 'msg');
      user.append(el('span', 'role', 'turn ' + (i + 1) + ' · user'), turn.user === null ? el('p', 'muted', 'the prompt above') : el('pre', 'text', turn.user));
      box.append(user);
    }
    turn.steps.forEach(function (x) {
      box.append(stepBox(x, theirs !== null && toolsOf(theirs.get(x.n)) !== toolsOf(x)));
    });
    const last = i === t.turns.length - 1;
    const reply = el('div', 'msg');
    const label = last ? 'final answer' : 'reply';
    if (turn.reply !== undefined) {
      // A reply that only called tools comes with no text (null, or empty as the service sent it).
      if (turn.reply) { reply.append(el('span', 'role', label), el('pre', 'text', turn.reply)); box.append(reply); }
      else if (!(last && o.stopped)) { reply.append(el('span', 'role', label), el('p', 'muted', 'no content')); box.append(reply); }
    } else if (last && o.answer) {
      reply.append(el('span', 'role', o.answer[0]), o.answer[1] === null ? el('p', 'muted', 'the same as tonight’s') : el('pre', 'text', o.answer[1]));
      box.append(reply);
    }
    col.append(box);
  });
  if (o.stopped) col.append(el('p', 'stopped bad', o.stopped));
  if (t.more_steps > 0 || t.more_calls > 0) col.append(el('p', 'note', 'and ' + [t.more_steps ? t.more_steps + ' more requests' : '', t.more_calls ? t.more_calls + ' more calls' : ''].filter(Boolean).join(' and ') + ', not shown here: the report’s JSON holds them all'));
  return col;
}
function stepBox(x, changed) {
  const box = el('div', 'step' + (x.error ? ' bad' : changed ? ' changed' : ''));
  const head = el('div', 'step-head');
  head.append(el('b', null, 'step ' + x.n));
  if (x.error) head.append(el('span', 'badge bad', x.error));
  if (changed) head.append(el('span', 'badge warn', 'calls differ'));
  const facts = [x.provider, x.model, x.finish_reason, x.latency_ms === null ? null : x.latency_ms + ' ms']
    .filter(function (f) { return f !== null && f !== undefined && f !== ''; });
  if (facts.length) head.append(el('span', 'muted', facts.join(' · ')));
  box.append(head);
  x.calls.forEach(function (k) {
    const call = el('div', 'call');
    const args = el('pre', 'io');
    args.append(el('b', null, k.tool), document.createTextNode('(' + k.arguments + ')'));
    call.append(el('span', 'dir', '→'), args);
    const result = el('div', 'call');
    result.append(el('span', 'dir', '←'), k.result === null ? el('p', 'io bad', 'no result: no tool_results rule answers this call') : el('pre', 'io', k.result));
    box.append(call, result);
  });
  if (x.calls.length === 0 && !x.error) box.append(el('p', 'io muted', x.finish_reason === 'tool_calls' ? 'its calls were not answered (no tool_results)' : 'answered without a tool call'));
  return box;
}
`;
