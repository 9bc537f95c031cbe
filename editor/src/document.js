// An effect document in the page: formatting it as the presets are written (one module a line),
// and mapping a compile error's JSON pointer back to the module, parameter or raw node it names
// (docs/design/modules.md: "/modules/<stage>/<i>[/<param>...]" or "/<init|update>/nodes/<i>...").
// The stages in the order an effect runs them (docs/design/modules.md).
export const STAGES = ['spawn', 'initialize', 'update', 'render'];

function indent(text, by) {
  return text.split('\n').join('\n' + by);
}

export function formatDocument(doc) {
  const keys = Object.keys(doc);
  const lines = keys.map((key) => {
    const value = doc[key];
    if (key === 'modules' && value && typeof value === 'object' && !Array.isArray(value)) {
      const stages = Object.keys(value).map((stage) => {
        const list = value[stage];
        if (!Array.isArray(list)) return `    ${JSON.stringify(stage)}: ${JSON.stringify(list)}`;
        if (list.length === 0) return `    ${JSON.stringify(stage)}: []`;
        const items = list.map((m) => '      ' + JSON.stringify(m).replace(/,"/g, ', "').replace(/":/g, '": '));
        return `    ${JSON.stringify(stage)}: [\n${items.join(',\n')}\n    ]`;
      });
      return `  "modules": {\n${stages.join(',\n')}\n  }`;
    }
    return `  ${JSON.stringify(key)}: ${indent(JSON.stringify(value, null, 2), '  ')}`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}

// {stage, index, param} for a module error, {graph, node} for a raw node's, or null.
export function locateError(where) {
  if (typeof where !== 'string') return null;
  const parts = where.split('/').slice(1);
  if (parts[0] === 'modules' && STAGES.includes(parts[1]) && /^\d+$/.test(parts[2] || ''))
    return { stage: parts[1], index: Number(parts[2]), param: parts[3] || null };
  if ((parts[0] === 'init' || parts[0] === 'update') && parts[1] === 'nodes' && /^\d+$/.test(parts[2] || ''))
    return { graph: parts[0], node: Number(parts[2]) };
  return null;
}

// The module a node of the expanded graph came from: "i2_life" -> initialize 2, "u0_fall" -> update 0.
export function nodeModule(id) {
  const m = /^([iu])(\d+)_/.exec(id);
  if (!m) return null;
  return { stage: m[1] === 'i' ? 'initialize' : 'update', index: Number(m[2]) };
}
