// The module library as the page knows it, generated from docs/effect.schema.json (bundled at
// build time): each stage's modules (the stage's $defs/module_<stage> enum) and each module's
// parameters with their descriptions, types and defaults ($defs/module_<name>); curve and
// gradient keys get drawn editors (KeysEditor.jsx).
import schema from '../../docs/effect.schema.json';
import { STAGES } from './document.js';

export { STAGES };

function paramKind(p) {
  if (p.type === 'number' || p.type === 'integer') return 'number';
  if (p.type === 'boolean') return 'boolean';
  if (p.type === 'string') {
    // "alpha | additive": a choice; anything else free text.
    const choices = (p.description || '').split(/\s*\|\s*/);
    if (choices.length > 1 && choices.every((c) => /^[a-z_]+$/.test(c))) return 'choice';
    return 'string';
  }
  if (p.type === 'array' && p.items && p.items.type === 'number' && p.minItems && p.minItems === p.maxItems)
    return 'vector';
  // Keys ([t, v...] lists): drawn as a curve ([t, v]) or a gradient ([t, r, g, b]), by the
  // width of the default's keys.
  if (p.type === 'array' && p.items && p.items.type === 'array' && Array.isArray(p.default?.[0])) {
    if (p.default[0].length === 2) return 'curve';
    if (p.default[0].length === 4) return 'gradient';
  }
  return 'json'; // anything else (the expose map): edited as JSON text
}

function moduleDef(name) {
  const def = schema.$defs[`module_${name}`];
  if (!def) return null;
  const params = Object.entries(def.properties || {})
    .filter(([key]) => key !== 'module')
    .map(([key, p]) => ({
      name: key,
      kind: paramKind(p),
      description: p.description || '',
      default: p.default,
      integer: p.type === 'integer',
      choices: paramKind(p) === 'choice' ? p.description.split(/\s*\|\s*/) : [],
      size: p.minItems || 0,
    }));
  return { name, description: def.description || '', params };
}

export const MODULES = {};
export const STAGE_MODULES = {};
for (const stage of STAGES) {
  const names = schema.$defs[`module_${stage}`]?.properties?.module?.enum || [];
  STAGE_MODULES[stage] = names;
  for (const n of names) MODULES[n] = moduleDef(n);
}
