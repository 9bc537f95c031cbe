// editor.document: the page's document helpers (editor/src/document.js) under node's test runner:
// compile-error pointers mapped back to the module, parameter or raw node they name, expanded
// node ids to their module, and documents formatted one module a line and read back unchanged.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { formatDocument, locateError, nodeModule } from '../../editor/src/document.js';

test('a module pointer names the stage, the module and the parameter', () => {
  assert.deepEqual(locateError('/modules/update/1/drag'), { stage: 'update', index: 1, param: 'drag' });
  assert.deepEqual(locateError('/modules/initialize/0'), { stage: 'initialize', index: 0, param: null });
  assert.deepEqual(locateError('/modules/initialize/2/direction/1'), { stage: 'initialize', index: 2, param: 'direction' });
});

test('a raw node pointer names its graph and index', () => {
  assert.deepEqual(locateError('/update/nodes/3/inputs/b'), { graph: 'update', node: 3 });
  assert.deepEqual(locateError('/init/nodes/0'), { graph: 'init', node: 0 });
});

test('pointers to nothing the page draws map to nothing', () => {
  for (const where of ['', '/', '/modules/later', '/modules/update/x', '/render/blend', 'update[12]', undefined])
    assert.equal(locateError(where), null, String(where));
});

test('expanded node ids name their module', () => {
  assert.deepEqual(nodeModule('i2_life'), { stage: 'initialize', index: 2 });
  assert.deepEqual(nodeModule('u10_fall'), { stage: 'update', index: 10 });
  assert.equal(nodeModule('get_velocity'), null);
  assert.equal(nodeModule('len'), null);
});

test('every preset formats to the same document, one module a line', () => {
  const dir = new URL('../../effects/', import.meta.url);
  for (const name of ['fire.json', 'smoke.json', 'rain.json', 'bonfire_flame.json']) {
    const doc = JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
    const text = formatDocument(doc);
    // The same values (JSON.stringify writes -0 as 0, as the page saves it).
    assert.equal(JSON.stringify(JSON.parse(text)), JSON.stringify(doc), name);
    const count = Object.values(doc.modules).reduce((n, list) => n + list.length, 0);
    const moduleLines = text.split('\n').filter((l) => l.trim().startsWith('{"module"'));
    assert.equal(moduleLines.length, count, name);
  }
});
