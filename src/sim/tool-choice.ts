import { wordsOf } from './prompt-values.js';
import type { SimTool, ToolRequest } from './tool-request.js';
import { keywords, stem } from './words.js';

/** A score at which a tool is relevant to the prompt: one word of its name, or two of its description. */
export const TOOL_RELEVANCE = 2;

/**
 * Which tools the simulated model calls, by stated rules (README, "The embedded simulator"):
 *
 * 1. No tools, or `tool_choice: "none"` → no call.
 * 2. A named `tool_choice` → that tool, once.
 * 3. The conversation ends with tool results and `tool_choice` is `auto` → no call: the model
 *    answers from the results.
 * 4. Each tool is scored against the last user message's content words (4+ letters, stop
 *    words dropped, compared by their first five letters): 2 per word of the tool's name
 *    (split at `_`, `-` and camelCase), 1 per word of its description. A tool scoring at
 *    least TOOL_RELEVANCE is relevant.
 * 5. `auto`: every relevant tool, best first (declaration order on a tie) — only the best
 *    with `parallel_tool_calls: false`; none relevant → a text answer.
 * 6. `required`: as `auto`, and when none is relevant, the best-scoring tool (the first on a tie).
 */
export function chooseTools(request: ToolRequest, prompt: string, endsWithToolResults: boolean): SimTool[] {
  const { tools, toolChoice } = request;
  if (tools.length === 0 || toolChoice === 'none') return [];
  if (typeof toolChoice === 'object') return tools.filter((t) => t.name === toolChoice.name).slice(0, 1);
  if (endsWithToolResults && toolChoice === 'auto') return [];
  const ranked = tools
    .map((tool, index) => ({ tool, index, score: toolScore(tool, prompt) }))
    .sort((a, b) => b.score - a.score || a.index - b.index);
  const relevant = ranked.filter((r) => r.score >= TOOL_RELEVANCE).map((r) => r.tool);
  const chosen = relevant.length === 0 && toolChoice === 'required' ? [ranked[0]!.tool] : relevant;
  return request.parallel ? chosen : chosen.slice(0, 1);
}

/** How strongly a prompt asks for a tool (rule 4). */
export function toolScore(tool: SimTool, prompt: string): number {
  const asked = new Set(keywords(prompt, 50).map(stem));
  const nameWords = new Set(wordsOf(tool.name).map(stem));
  const descriptionWords = new Set(keywords(tool.description, 50).map(stem));
  let score = 0;
  for (const w of asked) {
    if (nameWords.has(w)) score += 2;
    else if (descriptionWords.has(w)) score += 1;
  }
  return score;
}
