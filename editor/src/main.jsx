// mote edit's page: a preset browser, the module stack, the expanded node graph, the document's
// source, and the engine's live preview (docs/design/editor.md). Every edit recompiles on the
// server; the error it answers is drawn on the module or node its JSON pointer names.
import '@xyflow/react/dist/style.css';
import './app.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { api } from './api.js';
import { formatDocument, locateError } from './document.js';
import { GraphView } from './GraphView.jsx';
import { ModuleStack } from './ModuleStack.jsx';
import { Preview } from './Preview.jsx';

function fileFromHash() {
  const m = /file=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

function App() {
  const [files, setFiles] = useState([]);
  const [path, setPath] = useState(null);
  const [text, setText] = useState('');
  const [doc, setDoc] = useState(null);
  const [version, setVersion] = useState(0);
  const [result, setResult] = useState(null); // /api/compile's answer
  // The last graph the document expanded to: kept while an error stops the expansion.
  const [expanded, setExpanded] = useState(null);
  const [status, setStatus] = useState('');
  const [saved, setSaved] = useState('');
  const [view, setView] = useState('graph');
  const compiled = useRef(0);

  const open = useCallback(async (p) => {
    const r = await api.read(p);
    if (!r.ok) return setStatus(`cannot open ${p}: ${r.body.error?.message}`);
    setPath(p);
    setExpanded(null);
    setText(r.body.text);
    setSaved(r.body.text);
    setVersion((v) => v + 1);
    location.hash = `file=${encodeURIComponent(p)}`;
    setStatus(`opened ${p}`);
  }, []);

  useEffect(() => {
    (async () => {
      const [info, list] = await Promise.all([api.info(), api.files()]);
      const all = list.ok ? list.body.files : [];
      setFiles(all);
      const first = fileFromHash() || (info.ok && info.body.initial) || all.find((f) => f.kind === 'effect')?.path;
      if (first) open(first);
    })();
  }, [open]);

  // The text is the document: parse it when it changes, and recompile.
  useEffect(() => {
    let parsed = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    if (parsed && typeof parsed === 'object') setDoc(parsed);
    if (!text) return;
    const mine = ++compiled.current;
    const timer = setTimeout(async () => {
      const r = await api.compile(text);
      if (mine !== compiled.current) return;
      if (r.ok && r.body.expanded) setExpanded(r.body.expanded);
      if (r.status === 400) setResult({ ok: false, error: r.body.error });
      else if (r.ok) setResult(r.body);
      else setResult({ ok: false, error: r.body.error });
    }, 150);
    return () => clearTimeout(timer);
  }, [text]);

  const edit = (next) => {
    setDoc(next);
    setText(formatDocument(next));
    setVersion((v) => v + 1);
  };
  const save = async () => {
    const r = await api.save(path, text);
    if (r.ok) {
      setSaved(text);
      setStatus(`saved ${path}`);
    } else setStatus(`not saved: ${r.body.error?.message}`);
  };

  const error = result && !result.ok ? { ...result.error, ...locateError(result.error?.where) } : null;
  const validJson = doc && (() => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  })();
  return (
    <div className="app" data-version={version} data-compiled={result ? (result.ok ? 'ok' : 'error') : ''}>
      <header>
        <strong>mote edit</strong>
        <select id="preset" value={path || ''} onChange={(e) => open(e.target.value)}>
          {files.map((f) => (
            <option key={f.path} value={f.path}>
              {f.path}
              {f.kind === 'effect' ? '' : ` (${f.kind})`}
            </option>
          ))}
        </select>
        <button id="save" disabled={!path || text === saved} onClick={save}>
          save
        </button>
        <button id="revert" disabled={!path || text === saved} onClick={() => open(path)}>
          load
        </button>
        <span id="status">{status}</span>
      </header>
      <main>
        <aside className="left">
          {doc && doc.modules ? (
            <ModuleStack doc={doc} error={error} onChange={edit} />
          ) : (
            <p className="note">This document is a raw node graph: edit it in the source view.</p>
          )}
        </aside>
        <section className="right">
          <Preview path={path} text={validJson ? text : null} version={version} />
          <div id="compile" className={error ? 'compile has-error' : 'compile'}>
            {result ? (error ? `${error.where || '/'}: ${error.message}` : `compiled: ${result.capacity} particles at most`) : ''}
          </div>
          <nav className="tabs">
            <button className={view === 'graph' ? 'on' : ''} onClick={() => setView('graph')}>graph</button>
            <button className={view === 'source' ? 'on' : ''} onClick={() => setView('source')}>source</button>
          </nav>
          {view === 'graph' ? (
            <GraphView expanded={expanded} doc={doc} error={error} />
          ) : (
            <textarea
              id="source"
              spellCheck={false}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setVersion((v) => v + 1);
              }}
            />
          )}
        </section>
      </main>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
