// Whether dist/ was built from the sources as they are, so `npm start` builds only when it
// must (after `npm ci`, whose `prepare` already built, it does not). The stamp holds a
// sha256 of every input of the build — src/, the build scripts, the tsconfigs, the shipped
// schemas the validators are compiled from, package.json and package-lock.json — taken
// when a build begins and made the stamp only when it ends well: a build that failed or was
// stopped leaves none, and a file edited while it ran makes the next check see a change.
//
//   node scripts/build-stamp.mjs begin    (first step of `npm run build`)
//   node scripts/build-stamp.mjs end      (last step of `npm run build`)
//   node scripts/build-stamp.mjs ensure   (`npm start`: runs `npm run build` unless dist/ is fresh)
//   node scripts/build-stamp.mjs check    (exit 0 when dist/ is fresh, 1 when a build is due)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');
const pending = `${stamp}.pending`;
const INPUTS = [
  'src',
  'scripts/compile-schemas.mjs',
  'scripts/schemas.mjs',
  'scripts/build-stamp.mjs',
  'scripts/bundle.mjs',
  'schemas',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];

/** Every input file, sorted, with its bytes: one sha256. */
function fingerprint() {
  const hash = createHash('sha256');
  const files = INPUTS.flatMap((input) => filesUnder(join(root, input))).sort();
  for (const file of files) {
    hash.update(relative(root, file).replaceAll('\\', '/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function filesUnder(path) {
  if (!existsSync(path)) return [];
  try {
    return readdirSync(path, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [path];
  }
}

const fresh = () =>
  existsSync(join(root, 'dist', 'cli', 'main.js')) &&
  existsSync(stamp) &&
  readFileSync(stamp, 'utf8').trim() === fingerprint();

switch (process.argv[2]) {
  case 'begin':
    rmSync(stamp, { force: true });
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(pending, `${fingerprint()}\n`);
    break;
  case 'end':
    renameSync(pending, stamp);
    break;
  case 'check':
    process.exitCode = fresh() ? 0 : 1;
    break;
  case 'ensure': {
    if (fresh()) {
      console.log('dist/ is up to date with src/: not building again');
      break;
    }
    // Through the npm that runs this script (npm_execpath), so that it works on every platform.
    const npm = process.env.npm_execpath;
    const built = npm
      ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
      : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: true });
    process.exitCode = built.status ?? 1;
    break;
  }
  default:
    console.error('usage: node scripts/build-stamp.mjs begin|end|ensure|check');
    process.exitCode = 2;
}
