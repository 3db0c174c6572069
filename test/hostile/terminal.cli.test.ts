import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, makeProject, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { completion, type LoopbackService, sendJson, startLoopbackService } from './loopback.js';

// What a hostile service or file would write to drive the terminal: retitle the window
// (OSC 0 … BEL), clear the screen (CSI 2J, also as the one-byte C1 CSI), a NUL, a
// backspace and a carriage return that rewrite what is shown, a DEL.
const HOSTILE = 'a\u001b]0;pwned\u0007b\u001b[2Jc\u0000d\be\u009b2Jf\u007fg\rh';
/** Raw control bytes no output may hold: C0 but tab and newline, DEL, C1's CSI. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u009b]/;

const ENV = { OPENROUTER_API_KEY: `sk-or-v1-${'ab'.repeat(32)}` };

describe('a hostile service or file cannot drive the terminal', () => {
  let service: LoopbackService;
  let project: Awaited<ReturnType<typeof makeProject>>;
  const outputs: Record<string, CliResult> = {};

  beforeAll(async () => {
    service = await startLoopbackService((req, res) => {
      if (req.prompt === 'content') return sendJson(res, 200, completion(`answer ${HOSTILE}`, HOSTILE));
      if (req.prompt === 'auth')
        return sendJson(res, 401, JSON.stringify({ error: { code: 401, message: `no: ${HOSTILE}` } }));
      // 'error', and verify's call.
      sendJson(res, 400, JSON.stringify({ error: { code: 400, message: `bad: ${HOSTILE}` } }));
    });
    project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${service.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
`,
      // The auth failure last: it stops the run, and its message is the stop reason.
      'suites/hostile.yaml': `suite: hostile
service: router
model: openai/gpt-4o-mini
cases:
  - { id: content, prompt: content, expect: [{ equals: "answer" }] }
  - { id: error, prompt: error, expect: [{ non_empty: true }] }
  - { id: auth, prompt: auth, expect: [{ non_empty: true }] }
`,
      // YAML's own escapes put the same bytes in a suite file.
      'bad/broken.yaml': `suite: broken
service: router
model: openai/gpt-4o-mini
cases:
  - id: a
    prompt: hi
    "\\e]0;pwned\\a\\e[2Jexpect": [{ non_empty: true }]
    repeat: "\\e[2J\\b\\x00\\x9b2J"
`,
    });
    const cwd = project.dir;
    outputs.run = await runMain(['run', '--concurrency', '1'], { cwd, env: ENV });
    outputs.report = await runMain(['report', runDirFrom(outputs.run, cwd)], { cwd, env: ENV });
    outputs.verify = await runMain(['verify', '--model', 'openai/gpt-4o-mini'], { cwd, env: ENV });
    outputs.validate = await runMain(['validate', 'bad'], { cwd, env: ENV });
  });
  afterAll(async () => {
    await service.close();
    await project.cleanup();
  });

  it.each(['run', 'report', 'verify', 'validate'])('%s prints no raw control byte', (command) => {
    const { stdout, stderr } = outputs[command]!;
    expect(stdout + stderr).not.toMatch(RAW_CONTROL);
  });

  it('shows what the service sent, escaped: the error, the stop reason, the quoted answer, the model', () => {
    const { run, report } = outputs;
    expect(run!.code).toBe(4);
    const escaped = 'a\\u001b]0;pwned\\u0007b\\u001b[2Jc\\u0000d\\u0008e\\u009b2Jf\\u007fg\\u000dh';
    // An error message's whitespace (the carriage return) is folded to a space as it is read.
    const message = escaped.replace('\\u000d', ' ');
    // The console summary: the 400's message, the 401's as the stop reason, the model's name.
    expect(run!.stdout).toContain(`bad: ${message}`);
    expect(run!.stdout).toContain(`stopped on: auth — no: ${message}`);
    expect(run!.stdout).toContain(`· ${escaped}`);
    // The equals check quotes the answer, JSON-escaped, and the controls JSON keeps escaped too.
    expect(run!.stdout).toContain('\\u001b]0;pwned\\u0007b\\u001b[2Jc\\u0000d\\be\\u009b2Jf\\u007fg\\rh');
    // Re-rendered from the journal, the same.
    expect(report!.stdout).toContain(`bad: ${message}`);
    expect(outputs.verify!.stdout).toContain(`bad: ${message}`);
  });

  it("quotes a suite file's bytes escaped in validate's diagnostics", () => {
    const { code, stderr } = outputs.validate!;
    expect(code).toBe(2);
    expect(stderr).toContain("unknown key '\\u001b]0;pwned\\u0007\\u001b[2Jexpect'");
    expect(stderr).toContain("got '\\u001b[2J\\u0008\\u0000\\u009b2J'");
  });
});
