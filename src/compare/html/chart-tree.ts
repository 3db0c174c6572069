/** One candidate's point on the chart of pass rate against an axis it picks (cost, time to first token). */
interface ChartPoint {
  /** Its index among the candidates (the card it belongs to). */
  index: number;
  /** Its value on the chart's axis (cost per 1,000 cases, time to first token in ms). */
  x: number;
  rate: number;
  low: number;
  high: number;
  pareto: boolean;
  /** Its label (`★ name` on the frontier) and its tooltip. */
  text: string;
  title: string;
}

/**
 * What the chart draws, whatever its width: the points, the axis's ticks with their texts,
 * its name, and what the page says above and under it (its heading, the candidates it
 * could not place).
 */
export interface ChartInput {
  points: ChartPoint[];
  /** Log: the ticks are the lowest, their geometric mean and the highest; else 0, half and the top. */
  log: boolean;
  ticks: { value: number; text: string }[];
  axis: string;
  /** The chart's name for a screen reader. */
  label: string;
  title: string;
  /** The candidates without a value on this axis, said under the chart; null when every one has one. */
  unplaced: string | null;
}

/** An SVG element as data: what both the page's writer (a string) and its script (DOM nodes) build from. */
export interface SvgNode {
  tag: string;
  attrs: Record<string, string | number>;
  text?: string;
  children?: SvgNode[];
}

/**
 * The chart laid out for `width` × `height` px, as a tree of SVG elements: a point per
 * candidate with its 95 % interval as a bar, the frontier joined and ringed, the axes and
 * their ticks, labels moved down a line while they would overlap one placed before and kept
 * inside the chart. Drawn at the size it is shown (its viewBox is its size in px), so its
 * text is 12 px (ticks 11 px) on any screen, and it fills its box.
 *
 * Self-contained — no import, no name from outside it — because compare.html's script
 * embeds its source (as it embeds wordDiff) and lays the chart out again at the width the
 * page shows it; the page is written with it at a default width for readers without script.
 */
export function chartTree(input: ChartInput, width: number, height: number): SvgNode {
  const pad = { left: 56, right: 16, top: 18, bottom: 44 };
  // A label's height, and its width per character, in px of 12 px text.
  const line = 14;
  const char = 6.8;
  const span = width - pad.left - pad.right;
  const xs = input.points.map((p) => p.x);
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  const top = input.ticks[input.ticks.length - 1]!.value;
  // A little room at both ends of a log axis, so no point sits on an axis.
  const lo = Math.log10(min) - 0.15;
  const hi = Math.log10(max) + 0.15;
  const x = (value: number) =>
    input.log ? pad.left + ((Math.log10(value) - lo) / (hi - lo)) * span : pad.left + (value / top) * span;
  const y = (rate: number) => pad.top + (1 - rate) * (height - pad.top - pad.bottom);
  const node = (tag: string, attrs: SvgNode['attrs'], text?: string, children?: SvgNode[]): SvgNode => ({
    tag,
    attrs,
    ...(text === undefined ? {} : { text }),
    ...(children ? { children } : {}),
  });
  const children: SvgNode[] = [
    node('line', { class: 'axis', x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0) }),
    node('line', { class: 'axis', x1: pad.left, x2: pad.left, y1: pad.top, y2: y(0) }),
  ];
  for (const t of [0, 0.25, 0.5, 0.75, 1])
    children.push(
      node('line', { class: 'grid', x1: pad.left, x2: width - pad.right, y1: y(t), y2: y(t) }),
      node('text', { class: 'tick', x: pad.left - 6, y: y(t) + 4, 'text-anchor': 'end' }, `${t * 100}%`),
    );
  // The outer ticks' texts end inside the box.
  const anchors = ['start', 'middle', 'end'];
  input.ticks.forEach((t, i) =>
    children.push(
      node(
        'text',
        { class: 'tick', x: x(t.value), y: height - pad.bottom + 16, 'text-anchor': anchors[i] ?? 'middle' },
        t.text,
      ),
    ),
  );
  children.push(
    node(
      'text',
      { class: 'axis-title', x: (width + pad.left) / 2, y: height - 6, 'text-anchor': 'middle' },
      input.axis,
    ),
    node(
      'text',
      {
        class: 'axis-title',
        x: 14,
        y: (height - pad.bottom) / 2,
        'text-anchor': 'middle',
        transform: `rotate(-90 14 ${(height - pad.bottom) / 2})`,
      },
      'pass rate',
    ),
  );
  const frontier = input.points.filter((p) => p.pareto).sort((a, b) => a.x - b.x);
  if (frontier.length > 1)
    children.push(
      node('polyline', {
        class: 'frontier-line',
        points: frontier.map((p) => `${x(p.x)},${y(p.rate)}`).join(' '),
      }),
    );
  // Each label beside its point, on the side with more room, inside the chart, and moved
  // down a line while it would overlap one already placed (candidates of about one value
  // and pass rate would print over each other).
  const placed: { left: number; right: number; y: number }[] = [];
  for (const p of input.points) {
    const px = x(p.x);
    const py = y(p.rate);
    const size = p.text.length * char;
    let anchor = px > pad.left + span / 2 ? 'end' : 'start';
    if (anchor === 'start' && px + 10 + size > width) anchor = 'end';
    if (anchor === 'end' && px - 10 - size < 0) anchor = 'start';
    const left = anchor === 'end' ? px - 10 - size : px + 10;
    let ly = py - 8;
    while (placed.some((b) => Math.abs(b.y - ly) < line && b.left < left + size && left < b.right))
      ly += line;
    placed.push({ left, right: left + size, y: ly });
    children.push(
      node('g', { class: `point${p.pareto ? ' frontier' : ''}`, 'data-candidate': p.index }, undefined, [
        node('title', {}, p.title),
        node('line', { class: 'ci', x1: px, x2: px, y1: y(p.low), y2: y(p.high) }),
        ...(p.pareto ? [node('circle', { class: 'ring', cx: px, cy: py, r: 9 })] : []),
        node('circle', { class: 'dot', cx: px, cy: py, r: 5 }),
        node(
          'text',
          { class: 'label', x: anchor === 'end' ? px - 10 : px + 10, y: ly, 'text-anchor': anchor },
          p.text,
        ),
      ]),
    );
  }
  return node(
    'svg',
    {
      id: 'chart',
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': input.label,
    },
    undefined,
    children,
  );
}
