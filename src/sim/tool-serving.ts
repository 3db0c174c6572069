import type { SimToolFault } from '../suite/types.js';
import type { ToolParameter } from './catalog.js';
import { NO_TOOLS, type ToolRequest } from './tool-request.js';

/**
 * The tool request as the serving upstream sees it. Without `require_parameters`, an upstream
 * ignores the parameters it does not support (the router's documented default), and the
 * `ignore_tools` / `ignore_response_format` faults make it drop those; under
 * `require_parameters: true` the router would not have sent the request to such an upstream,
 * so nothing is dropped.
 */
export function servedToolRequest(
  request: ToolRequest,
  unsupported: readonly ToolParameter[],
  fault: SimToolFault | undefined,
  requireParameters: boolean,
): ToolRequest {
  if (requireParameters) return request;
  const ignored = new Set(unsupported);
  if (fault === 'ignore_tools')
    for (const p of ['tools', 'tool_choice', 'parallel_tool_calls'] as const) ignored.add(p);
  if (fault === 'ignore_response_format') ignored.add('response_format');
  if (ignored.size === 0) return request;
  const dropTools = ignored.has('tools');
  return {
    tools: dropTools ? [] : request.tools,
    toolChoice: dropTools ? 'none' : ignored.has('tool_choice') ? 'auto' : request.toolChoice,
    parallel: ignored.has('parallel_tool_calls') ? NO_TOOLS.parallel : request.parallel,
    responseFormat: ignored.has('response_format') ? NO_TOOLS.responseFormat : request.responseFormat,
    carries: request.carries.filter((p) => !ignored.has(p)),
  };
}
