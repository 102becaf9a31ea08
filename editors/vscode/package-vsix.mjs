// Builds sdm-fabric.vsix offline: the extension with the sdm.jar of this checkout
// (cli/target/sdm.jar, built by `mvn package`), packed by @vscode/vsce from node_modules.
import { copyFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const here = import.meta.dirname;
const jar = resolve(here, '..', '..', 'cli', 'target', 'sdm.jar');
if (!existsSync(jar)) {
  console.error(`package-vsix: ${jar} is missing: build it first (mvn -pl cli -am package)`);
  process.exit(2);
}
copyFileSync(jar, join(here, 'sdm.jar'));
execFileSync(
  join(here, 'node_modules', '.bin', 'vsce'),
  ['package', '--no-dependencies', '--skip-license', '--out', 'sdm-fabric.vsix'],
  { cwd: here, stdio: 'inherit' },
);
