// Bundles the editor page with esbuild at build time (editor/CMakeLists.txt runs it):
//   node build.mjs OUT_DIR
// writes OUT_DIR/index.html, app.js and app.css. Everything the page needs is in those three
// files: `mote edit` serves them and nothing is fetched from elsewhere at run time.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) {
  console.error('usage: node build.mjs OUT_DIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: join(here, 'src', 'main.jsx') },
  bundle: true,
  minify: true,
  outdir: out,
  format: 'esm',
  jsx: 'automatic',
  target: ['chrome110', 'firefox110'],
  define: { 'process.env.NODE_ENV': '"production"' },
  loader: { '.json': 'json' },
  logLevel: 'warning',
});
copyFileSync(join(here, 'src', 'index.html'), join(out, 'index.html'));
