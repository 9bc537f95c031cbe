// The node graph the modules expand to (the server's /api/compile "expanded"): the init graph
// above the update graph, each laid out left to right by dependency depth, every node coloured by
// the module it came from; the node (or module's nodes) a compile error points at drawn in red.
import { Background, Controls, ReactFlow } from '@xyflow/react';
import { useMemo } from 'react';
import { nodeModule } from './document.js';

const STAGE_HUE = { initialize: 200, update: 130 };

function layoutGraph(graphName, graph, top, isError) {
  const list = (graph && Array.isArray(graph.nodes) ? graph.nodes : []).filter((n) => n && typeof n.id === 'string');
  const byId = new Map(list.map((n) => [n.id, n]));
  const refs = (n) =>
    Object.entries(n.inputs || {})
      .filter(([, v]) => typeof v === 'string')
      .map(([port, v]) => ({ port, from: v.split('.')[0] }))
      .filter((r) => byId.has(r.from));
  const depth = new Map();
  const depthOf = (n, seen = new Set()) => {
    if (depth.has(n.id)) return depth.get(n.id);
    if (seen.has(n.id)) return 0; // a cycle: the compiler reports it
    seen.add(n.id);
    const d = refs(n).reduce((m, r) => Math.max(m, depthOf(byId.get(r.from), seen) + 1), 0);
    depth.set(n.id, d);
    return d;
  };
  const rows = new Map();
  const nodes = list.map((n) => {
    const d = depthOf(n);
    const row = rows.get(d) || 0;
    rows.set(d, row + 1);
    const mod = nodeModule(n.id);
    const hue = mod ? (STAGE_HUE[mod.stage] + mod.index * 37) % 360 : 40;
    const error = isError(graphName, n.id, mod);
    return {
      id: `${graphName}:${n.id}`,
      position: { x: d * 200, y: top + row * 64 },
      data: { label: `${n.type}\n${n.id}` },
      className: `graph-node${error ? ' has-error' : ''}`,
      style: { borderColor: error ? '#e5484d' : `hsl(${hue} 60% 55%)`, background: `hsl(${hue} 35% 18%)` },
      sourcePosition: 'right',
      targetPosition: 'left',
    };
  });
  const edges = list.flatMap((n) =>
    refs(n).map((r) => ({
      id: `${graphName}:${r.from}->${n.id}.${r.port}`,
      source: `${graphName}:${r.from}`,
      target: `${graphName}:${n.id}`,
    })),
  );
  const height = Math.max(1, ...rows.values()) * 64 + 80;
  return { nodes, edges, height };
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
