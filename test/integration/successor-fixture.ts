// The successor project (@opengsd/gsd-pi 1.x layout, issue 17's facts) the integration runner opens
// in its own window: the unit tests' `.gsd/phases` tree, written into `dir`. No gsd.db here: the
// runner's Node may lack node:sqlite; the suite adds the database inside the host when it has it.
import { writeSuccessorLayout } from '../unit/helpers/successor-project';

export function writeSuccessorWorkspace(dir: string): string {
  writeSuccessorLayout({ 'README.md': '# Shop: a project driven by GSD (@opengsd/gsd-pi)\n', 'src/cart.ts': 'export const cart = [];\n' }, dir);
  return dir;
}
