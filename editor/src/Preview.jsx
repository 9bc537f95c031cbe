// The live preview: the engine's frames of the document being edited, fetched one after another
// from the server (/api/frame, raw RGBA drawn into a canvas): play / pause / restart / scrub and
// a time scale. A changed document is previewed at once, at the time shown.
import { useEffect, useRef, useState } from 'react';
import { api } from './api.js';

const WIDTH = 480;
const HEIGHT = 270;
const LOOP_SECONDS = 10;

export function Preview({ path, text, version }) {
  const canvas = useRef(null);
  const root = useRef(null); // data-busy while a frame is asked for (the browser test waits on it)
  const time = useRef(0);
  const dirty = useRef(true);
  const busy = useRef(false);
  const want = useRef({ path, text, version });
  const [playing, setPlaying] = useState(false);
  const [scale, setScale] = useState(1);
  const [shown, setShown] = useState({ time: 0, alive: 0 });
  const [error, setError] = useState(null);
  const [slider, setSlider] = useState(0);
  const playRef = useRef(playing);
  const scaleRef = useRef(scale);
  playRef.current = playing;
  scaleRef.current = scale;

  useEffect(() => {
    want.current = { path, text, version };
    dirty.current = true;
  }, [path, text, version]);

  useEffect(() => {
    let last = performance.now();
    let raf = 0;
    const frame = () => {
      const now = performance.now();
      if (playRef.current) {
        time.current = (time.current + ((now - last) / 1000) * scaleRef.current) % LOOP_SECONDS;
        dirty.current = true;
      }
      last = now;
      const { path: p, text: t, version: v } = want.current;
      if (dirty.current && !busy.current && p && t) {
        dirty.current = false;
        busy.current = true;
        root.current.dataset.busy = '1';
        const at = time.current;
        api.frame(p, t, at, WIDTH, HEIGHT).then((r) => {
          busy.current = false;
          delete root.current.dataset.busy;
          if (!r.ok) {
            setError(r.error?.message || 'no frame');
            return;
          }
          setError(null);
          canvas.current.getContext('2d').putImageData(r.image, 0, 0);
          canvas.current.dataset.frame = `${v}@${at.toFixed(4)}`;
          setShown({ time: r.time, alive: r.alive });
          setSlider(at);
        });
      }
      raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => cancelAnimationFrame(raf);
  }, []);

  const seek = (t) => {
    time.current = t;
    setSlider(t);
    dirty.current = true;
  };
  return (
    <div className="preview" id="preview" ref={root}>
      <canvas ref={canvas} width={WIDTH} height={HEIGHT} />
      <div className="transport">
        <button id="play" onClick={() => setPlaying(!playing)}>{playing ? 'pause' : 'play'}</button>
        <button id="restart" onClick={() => seek(0)}>restart</button>
        <input
          id="scrub"
          type="range"
          min="0"
          max={LOOP_SECONDS}
          step="0.01"
          value={slider}
          onChange={(e) => seek(Number(e.target.value))}
        />
        <select id="time-scale" value={scale} onChange={(e) => setScale(Number(e.target.value))}>
          {[0.1, 0.25, 0.5, 1, 2].map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </div>
      <div className="preview-info">
        t = {shown.time.toFixed(2)} s · {shown.alive} particles
        {error && <span className="preview-error"> · {error}</span>}
      </div>
    </div>
  );
}
