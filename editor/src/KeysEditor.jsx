// The drawn editors of a module's curve and gradient keys (keys.js does their arithmetic).
// Curve: the keys as points on the line they draw over t = 0..1; drag a point to move it
// (t and value), double-click the line's box to add a key on the line, double-click a point to
// remove it. Gradient: a bar of the colours over t with a marker per key; drag a marker along
// the bar, double-click the bar to add a key of the colour already there, pick a marker's colour
// with the colour picker, remove it. A change is handed to the document when the drag ends (one
// recompile per gesture), and the server compiles it like any other edit.
import { useRef, useState } from 'react';
import {
  colorToHex,
  curveRange,
  gradientCss,
  hexToColor,
  insertKey,
  keyToPoint,
  moveKey,
  pointToKey,
  removeKey,
  setKeyColor,
} from './keys.js';

const WIDTH = 220;
const HEIGHT = 70;

// A click without a drag changes nothing: no edit, no recompile.
function sameKeys(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function localPoint(element, e) {
  const r = element.getBoundingClientRect();
  return { x: e.clientX - r.left, y: e.clientY - r.top };
}

// The pointer in the SVG's own coordinates (inside its border).
function svgPoint(svg, e) {
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
  return { x: p.x, y: p.y };
}

// The drag in state (to draw it) and in a ref (what a handler reads: the state a handler closed
// over can be a move behind when the pointer is released).
function useDrag() {
  const [drag, setDragState] = useState(null);
  const ref = useRef(null);
  const setDrag = (d) => {
    ref.current = d;
    setDragState(d);
  };
  return [drag, setDrag, ref];
}

export function CurveEditor({ keys, testid, onChange }) {
  const svg = useRef(null);
  const [drag, setDrag, dragRef] = useDrag(); // {index, keys} while a point is dragged
  const box = { width: WIDTH, height: HEIGHT, ...curveRange(keys) };
  const shown = drag ? drag.keys : keys;
  const line = shown
    .slice()
    .sort((a, b) => a[0] - b[0])
    .map((k) => keyToPoint(k, box))
    .map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`)
    .join(' ');
  const end = () => {
    const d = dragRef.current;
    if (d && !sameKeys(d.keys, keys)) onChange(d.keys);
    setDrag(null);
  };
  return (
    <svg
      ref={svg}
      className="curve"
      data-keys={testid}
      width={WIDTH}
      height={HEIGHT}
      onPointerMove={(e) => {
        const d = dragRef.current;
        if (!d) return;
        const [t, v] = pointToKey(svgPoint(svg.current, e), box);
        setDrag(moveKey(d.keys, d.index, t, v));
      }}
      onPointerUp={end}
      onPointerCancel={() => setDrag(null)}
      onDoubleClick={(e) => onChange(insertKey(keys, pointToKey(svgPoint(svg.current, e), box)[0]).keys)}
    >
      <rect width={WIDTH} height={HEIGHT} className="curve-box" />
      <polyline points={line} className="curve-line" />
      {shown.map((k, i) => {
        const p = keyToPoint(k, box);
        return (
          <circle
            key={i}
            data-key={i}
            cx={p.x}
            cy={p.y}
            r={5}
            className={drag && drag.index === i ? 'curve-key on' : 'curve-key'}
            onPointerDown={(e) => {
              // Captured by the point itself: the moves bubble to the SVG, and a double-click
              // still lands on the point.
              e.currentTarget.setPointerCapture(e.pointerId);
              setDrag({ index: i, keys: shown });
            }}
            onDoubleClick={(e) => {
              e.stopPropagation();
              onChange(removeKey(keys, i));
            }}
          >
            <title>{`t ${k[0]}, ${k[1]}`}</title>
          </circle>
        );
      })}
    </svg>
  );
}

export function GradientEditor({ keys, testid, onChange }) {
  const stops = useRef(null);
  const [selected, setSelected] = useState(0);
  const [drag, setDrag, dragRef] = useDrag(); // {index, keys} while a marker is dragged
  const shown = drag ? drag.keys : keys;
  const current = Math.min(selected, keys.length - 1);
  const tAt = (element, e) => localPoint(element, e).x / WIDTH;
  return (
    <div className="gradient" data-keys={testid}>
      <div
        className="gradient-bar"
        style={{ width: WIDTH, background: gradientCss(shown) }}
        onDoubleClick={(e) => {
          const r = insertKey(keys, tAt(e.currentTarget, e));
          onChange(r.keys);
          setSelected(r.index);
        }}
      />
      <div
        className="gradient-stops"
        ref={stops}
        style={{ width: WIDTH }}
        onPointerMove={(e) => {
          const d = dragRef.current;
          if (d) setDrag(moveKey(d.keys, d.index, tAt(stops.current, e)));
        }}
        onPointerUp={() => {
          const d = dragRef.current;
          if (d) {
            if (!sameKeys(d.keys, keys)) onChange(d.keys);
            setSelected(d.index);
          }
          setDrag(null);
        }}
        onPointerCancel={() => setDrag(null)}
      >
        {shown.map((k, i) => (
          <span
            key={i}
            data-key={i}
            className={i === (drag ? drag.index : current) ? 'gradient-stop on' : 'gradient-stop'}
            style={{ left: k[0] * WIDTH - 5, background: colorToHex(k.slice(1, 4)) }}
            title={`t ${k[0]}`}
            onPointerDown={(e) => {
              e.currentTarget.setPointerCapture(e.pointerId);
              setSelected(i);
              setDrag({ index: i, keys: shown });
            }}
          />
        ))}
      </div>
      <div className="gradient-tools">
        <input
          type="color"
          data-key-color={testid}
          value={colorToHex(keys[current].slice(1, 4))}
          onChange={(e) => {
            const rgb = hexToColor(e.target.value);
            if (rgb) onChange(setKeyColor(keys, current, rgb));
          }}
        />
        <span className="gradient-t">t {keys[current][0]}</span>
        <button disabled={keys.length <= 1} onClick={() => onChange(removeKey(keys, current))} title="remove this key">
          remove
        </button>
      </div>
    </div>
  );
}
