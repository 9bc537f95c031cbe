// The live preview: the engine's frames of the document being edited, pushed by the server as
// they render (a Server-Sent Events stream, tools/mote/edit/edit_stream.hpp) and drawn into a
// canvas. The page drives its stream's session: the document (sent again on every edit) and the
// transport (play / pause / restart / scrub / time scale); the server's clock runs the time.
// Every change is numbered (seq); the frames echo the latest one they show, and the preview is
// busy (data-busy, which the browser test waits on) until its last change shows.
import { useEffect, useRef, useState } from 'react';
import { api } from './api.js';

const WIDTH = 480;
const HEIGHT = 270;
const LOOP_SECONDS = 10;

function decodeFrame(frame) {
  const raw = atob(frame.rgba);
  const bytes = new Uint8ClampedArray(raw.length);
  for (let i = 0; i < raw.length; ++i) bytes[i] = raw.charCodeAt(i);
  if (bytes.length !== frame.width * frame.height * 4) return null;
  return new ImageData(bytes, frame.width, frame.height);
}

export function Preview({ path, text, version }) {
  const canvas = useRef(null);
  const root = useRef(null);
  const session = useRef(Math.random().toString(36).slice(2) + Date.now().toString(36));
  const seq = useRef(0);
  const state = useRef({ path, text, version, playing: false, scale: 1, t: 0 });
  const [playing, setPlaying] = useState(false);
  const [scale, setScale] = useState(1);
  const [shown, setShown] = useState({ time: 0, alive: 0 });
  const [error, setError] = useState(null);
  const [slider, setSlider] = useState(0);

  const busy = (on) => {
    if (!root.current) return;
    if (on) root.current.dataset.busy = '1';
    else delete root.current.dataset.busy;
  };
  const sendDocument = () => {
    const { path: p, text: t, version: v } = state.current;
    if (!p || !t) return;
    busy(true);
    api.preview(session.current, p, t, v, ++seq.current).then((r) => {
      if (!r.ok) setError(r.body.error?.message || 'the preview was refused');
    });
  };
  const sendTransport = (t) => {
    const { playing: on, scale: s } = state.current;
    busy(true);
    api.transport(session.current, { playing: on, t, scale: s, seq: ++seq.current }).then((r) => {
      if (!r.ok) setError(r.body.error?.message || 'the transport was refused');
    });
  };

  useEffect(() => {
    const stream = api.stream(session.current, WIDTH, HEIGHT);
    // (Re)connected: the server's session is new, so it is told everything again.
    stream.onopen = () => {
      sendTransport(state.current.t);
      sendDocument();
    };
    const landed = (event) => {
      if (event.seq >= seq.current) busy(false);
    };
    stream.addEventListener('frame', (e) => {
      const frame = JSON.parse(e.data);
      const image = decodeFrame(frame);
      if (!image) return setError('a frame of the wrong size');
      setError(null);
      canvas.current.getContext('2d').putImageData(image, 0, 0);
      canvas.current.dataset.frame = `${frame.version}@${frame.t.toFixed(4)}`;
      state.current.t = frame.t;
      setShown({ time: frame.time, alive: frame.alive });
      setSlider(frame.t);
      landed(frame);
    });
    stream.addEventListener('frame_error', (e) => {
      const event = JSON.parse(e.data);
      setError(event.error?.message || 'no frame');
      landed(event);
    });
    return () => stream.close();
  }, []);

  useEffect(() => {
    Object.assign(state.current, { path, text, version });
    sendDocument();
  }, [path, text, version]);

  const play = (on) => {
    state.current.playing = on;
    setPlaying(on);
    sendTransport(); // the clock keeps its time
  };
  const seek = (t) => {
    state.current.t = t;
    setSlider(t);
    sendTransport(t);
  };
  const rescale = (s) => {
    state.current.scale = s;
    setScale(s);
    sendTransport();
  };
  return (
    <div className="preview" id="preview" ref={root}>
      <canvas ref={canvas} width={WIDTH} height={HEIGHT} />
      <div className="transport">
        <button id="play" onClick={() => play(!playing)}>{playing ? 'pause' : 'play'}</button>
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
        <select id="time-scale" value={scale} onChange={(e) => rescale(Number(e.target.value))}>
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
