// The node graph the modules expand to (the server's /api/compile "expanded"): the init graph
// above the update graph, each laid out left to right by dependency depth, every node coloured by
// the module it came from; the node (or module's nodes) a compile error points at drawn in red.
import { Background, Controls, ReactFlow } from '@xyflow/react';
import { useMemo } from 'react';
import { nodeModule } from './document.js';

const STAGE_HUE = { initialize: 200, update: 130 };

const NODE_W = 170;
const ROW_H = 56;
const WRAP = 2200; // blocks wrap onto a new line past this width

// Nodes are laid out a block per module, in the modules' order (a node of no module, such as a
// shared field read, joins its first reader's block), each block left to right by dependency
// depth; blocks wrap onto new lines.
function layoutGraph(graphName, graph, top, isError) {
  const list = (graph && Array.isArray(graph.nodes) ? graph.nodes : []).filter((n) => n && typeof n.id === 'string');
  const byId = new Map(list.map((n) => [n.id, n]));
  const refs = (n) =>
    Object.entries(n.inputs || {})
      .filter(([, v]) => typeof v === 'string')
      .map(([port, v]) => ({ port, from: v.split('.')[0] }))
      .filter((r) => byId.has(r.from));
  const group = new Map();
  for (const n of list) {
    const mod = nodeModule(n.id);
    if (mod) group.set(n.id, `${mod.stage}/${mod.index}`);
  }
  for (const n of list)
    for (const r of refs(n)) if (!group.has(r.from) && group.has(n.id)) group.set(r.from, group.get(n.id));
  for (const n of list) if (!group.has(n.id)) group.set(n.id, 'raw');
  const depth = new Map();
  const depthOf = (n, seen = new Set()) => {
    if (depth.has(n.id)) return depth.get(n.id);
    if (seen.has(n.id)) return 0; // a cycle: the compiler reports it
    seen.add(n.id);
    const d = refs(n)
      .filter((r) => group.get(r.from) === group.get(n.id))
      .reduce((m, r) => Math.max(m, depthOf(byId.get(r.from), seen) + 1), 0);
    depth.set(n.id, d);
    return d;
  };
  const blocks = [];
  const blockOf = new Map();
  for (const n of list) {
    const key = group.get(n.id);
    if (!blockOf.has(key)) {
      blockOf.set(key, { key, nodes: [] });
      blocks.push(blockOf.get(key));
    }
    blockOf.get(key).nodes.push(n);
  }
  const nodes = [];
  let x = 0;
  let y = top;
  let lineHeight = 0;
  for (const block of blocks) {
    const rows = new Map();
    const placed = block.nodes.map((n) => {
      const d = depthOf(n);
      const row = rows.get(d) || 0;
      rows.set(d, row + 1);
      return { n, d, row };
    });
    const width = (Math.max(...placed.map((p) => p.d)) + 1) * NODE_W + 30;
    const height = Math.max(...rows.values()) * ROW_H + 30;
    if (x > 0 && x + width > WRAP) {
      x = 0;
      y += lineHeight;
      lineHeight = 0;
    }
    for (const { n, d, row } of placed) {
      const mod = nodeModule(n.id);
      const hue = mod ? (STAGE_HUE[mod.stage] + mod.index * 37) % 360 : 40;
      const error = isError(graphName, n.id, mod);
      nodes.push({
        id: `${graphName}:${n.id}`,
        position: { x: x + d * NODE_W, y: y + row * ROW_H },
        data: { label: `${n.type}\n${n.id}` },
        className: `graph-node${error ? ' has-error' : ''}`,
        style: { borderColor: error ? '#e5484d' : `hsl(${hue} 60% 55%)`, background: `hsl(${hue} 35% 18%)` },
        sourcePosition: 'right',
        targetPosition: 'left',
      });
    }
    x += width;
    lineHeight = Math.max(lineHeight, height);
  }
  const edges = list.flatMap((n) =>
    refs(n).map((r) => ({
      id: `${graphName}:${r.from}->${n.id}.${r.port}`,
      source: `${graphName}:${r.from}`,
      target: `${graphName}:${n.id}`,
    })),
  );
  return { nodes, edges, height: y - top + lineHeight + 60 };
}

export function GraphView({ expanded, doc, error }) {
  const flow = useMemo(() => {
    if (!expanded) return { nodes: [], edges: [] };
    // A raw node's error names it by its index in the document's own graph.
    const rawId = error && error.graph ? doc?.[error.graph]?.nodes?.[error.node]?.id : null;
    const isError = (graphName, id, mod) =>
      !!error &&
      ((error.graph === graphName && rawId === id) ||
        (mod && error.stage === mod.stage && error.index === mod.index));
    const init = layoutGraph('init', expanded.init, 0, isError);
    const update = layoutGraph('update', expanded.update, init.height, isError);
    return { nodes: [...init.nodes, ...update.nodes], edges: [...init.edges, ...update.edges] };
  }, [expanded, doc, error]);
  return (
    <div className="graph" data-nodes={flow.nodes.length}>
      <ReactFlow nodes={flow.nodes} edges={flow.edges} fitView minZoom={0.05} nodesConnectable={false} colorMode="dark">
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
