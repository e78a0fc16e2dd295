// js-yaml, loaded on the first YAML parse rather than at start: a CLI command that parses no
// frontmatter (`state` on a GSD-2 database project) then never pays for it (~4 ms of a start).
import type * as JsYamlModule from 'js-yaml';

let jsYaml: typeof JsYamlModule | undefined;

export function jsYamlLib(): typeof JsYamlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (jsYaml ??= require('js-yaml') as typeof JsYamlModule);
}
