// The module stack: each stage's modules in the order they run, their parameters edited in place
// (the schema's defaults shown until set), modules added, moved and removed; a compile error is
// drawn on the module (and parameter) its pointer names.
import { useState } from 'react';
import { CurveEditor, GradientEditor } from './KeysEditor.jsx';
import { readKeys } from './keys.js';
import { MODULES, STAGES, STAGE_MODULES } from './schema.js';

function parseNumber(text) {
  const v = Number(text);
  // Anything that is not a number is kept as typed: the compiler says what is wrong, on the module.
  return text.trim() !== '' && Number.isFinite(v) ? v : text;
}

function ParamInput({ param, value, testid, onChange }) {
  const shown = value === undefined ? param.default : value;
  const cls = value === undefined ? 'default' : '';
  if (param.kind === 'boolean')
    return <input type="checkbox" data-param={testid} checked={!!shown} onChange={(e) => onChange(e.target.checked)} />;
  if (param.kind === 'choice')
    return (
      <select data-param={testid} className={cls} value={shown} onChange={(e) => onChange(e.target.value)}>
        {param.choices.map((c) => (
          <option key={c}>{c}</option>
        ))}
      </select>
    );
  if (param.kind === 'vector') {
    const list = Array.isArray(shown) ? shown : [];
    return (
      <span className="vector">
        {Array.from({ length: param.size }, (_, i) => (
          <TextField
            key={i}
            testid={`${testid}/${i}`}
            cls={cls}
            value={list[i] === undefined ? '' : String(list[i])}
            onCommit={(t) => {
              const next = Array.from({ length: param.size }, (_, k) => (k < list.length ? list[k] : 0));
              next[i] = parseNumber(t);
              onChange(next);
            }}
          />
        ))}
      </span>
    );
  }
  if (param.kind === 'number')
    return <TextField testid={testid} cls={cls} value={String(shown ?? '')} onCommit={(t) => onChange(parseNumber(t))} />;
  if (param.kind === 'string')
    return <TextField testid={testid} cls={cls} value={String(shown ?? '')} onCommit={(t) => onChange(t)} />;
  const text = (
    <TextField
      testid={testid}
      cls={cls + ' json'}
      value={JSON.stringify(shown)}
      onCommit={(t) => {
        try {
          onChange(JSON.parse(t));
        } catch {
          onChange(t);
        }
      }}
    />
  );
  // Curve and gradient keys are drawn (when they are a list of keys; else only the text is
  // shown, and the compiler says what is wrong); the text stays below for exact values.
  const keys = param.kind === 'curve' || param.kind === 'gradient' ? readKeys(shown) : null;
  if (!keys) return text;
  const Editor = param.kind === 'curve' ? CurveEditor : GradientEditor;
  return (
    <span className="keys">
      <Editor keys={keys} testid={testid} onChange={onChange} />
      {text}
    </span>
  );
}

// A text box that commits on Enter or when it loses focus, so a half-typed number is not compiled.
function TextField({ value, onCommit, testid, cls }) {
  const [draft, setDraft] = useState(null);
  return (
    <input
      type="text"
      className={cls}
      data-param={testid}
      value={draft ?? value}
      onChange={(e) => setDraft(e.target.value)}
      onKeyDown={(e) => e.key === 'Enter' && e.target.blur()}
      onBlur={() => {
        if (draft !== null && draft !== value) onCommit(draft);
        setDraft(null);
      }}
    />
  );
}

function ModuleCard({ stage, index, module, count, error, onEdit }) {
  const def = MODULES[module.module];
  // Parameters left at their defaults are folded away until asked for.
  const [unfolded, setUnfolded] = useState(false);
  const id = `${stage}/${index}`;
  const mine = error && error.stage === stage && error.index === index;
  const set = (name, v) => onEdit((list) => list.map((m, i) => (i === index ? { ...m, [name]: v } : m)));
  const move = (by) =>
    onEdit((list) => {
      const next = list.slice();
      const [m] = next.splice(index, 1);
      next.splice(index + by, 0, m);
      return next;
    });
  return (
    <div className={`module${mine ? ' has-error' : ''}`} data-module={id} title={def ? def.description : ''}>
      <div className="module-head">
        <span className="module-name">{module.module}</span>
        <span className="module-tools">
          <button disabled={index === 0} onClick={() => move(-1)} title="run earlier">↑</button>
          <button disabled={index === count - 1} onClick={() => move(1)} title="run later">↓</button>
          <button onClick={() => onEdit((list) => list.filter((_, i) => i !== index))} title="remove">×</button>
        </span>
      </div>
      {mine && (
        <div className="module-error" data-error={id}>
          {error.message}
        </div>
      )}
      {!def && <div className="module-error">not a module of the library</div>}
      {def &&
        def.params
          .filter((p) => unfolded || module[p.name] !== undefined || (mine && error.param === p.name))
          .map((p) => (
          <label key={p.name} className={`param${mine && error.param === p.name ? ' has-error' : ''}`} title={p.description}>
            <span className="param-name">{p.name}</span>
            <ParamInput param={p} value={module[p.name]} testid={`${id}/${p.name}`} onChange={(v) => set(p.name, v)} />
          </label>
        ))}
      {def && def.params.some((p) => module[p.name] === undefined) && (
        <button className="fold" onClick={() => setUnfolded(!unfolded)}>
          {unfolded ? 'hide defaults' : `${def.params.filter((p) => module[p.name] === undefined).length} at default…`}
        </button>
      )}
    </div>
  );
}

export function ModuleStack({ doc, error, onChange }) {
  const modules = doc.modules || {};
  const editStage = (stage) => (f) => onChange({ ...doc, modules: { ...modules, [stage]: f(modules[stage] || []) } });
  return (
    <div className="stack">
      {STAGES.map((stage) => (
        <section key={stage} className="stage" data-stage={stage}>
          <h3>{stage}</h3>
          {(modules[stage] || []).map((m, i) => (
            <ModuleCard
              key={`${i}-${m.module}`}
              stage={stage}
              index={i}
              module={m}
              count={(modules[stage] || []).length}
              error={error}
              onEdit={editStage(stage)}
            />
          ))}
          <select
            className="add-module"
            value=""
            onChange={(e) => e.target.value && editStage(stage)((list) => [...list, { module: e.target.value }])}
          >
            <option value="">+ add a {stage} module</option>
            {STAGE_MODULES[stage].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </section>
      ))}
    </div>
  );
}
