// The server's JSON API (tools/mote/edit/edit_server.hpp). Every call resolves to
// {ok, status, body}: an error answer is a value the page shows, not an exception.
async function call(method, url, body) {
  try {
    const res = await fetch(url, { method, body, headers: body ? { 'Content-Type': 'application/json' } : {} });
    const json = await res.json().catch(() => ({ error: { message: `HTTP ${res.status}` } }));
    return { ok: res.ok, status: res.status, body: json };
  } catch (e) {
    return { ok: false, status: 0, body: { error: { message: `the server cannot be reached: ${e.message}` } } };
  }
}

export const api = {
  info: () => call('GET', '/api/info'),
  files: () => call('GET', '/api/files'),
  read: (path) => call('GET', `/api/file?path=${encodeURIComponent(path)}`),
  save: (path, text) => call('PUT', `/api/file?path=${encodeURIComponent(path)}`, text),
  compile: (text) => call('POST', '/api/compile', text),
  // The pushed preview (Preview.jsx): the stream's document and its transport.
  preview: (session, path, text, version, seq) =>
    call('POST', `/api/preview?session=${session}&path=${encodeURIComponent(path)}&version=${version}&seq=${seq}`, text),
  transport: (session, { playing, t, scale, seq }) =>
    call(
      'POST',
      `/api/transport?session=${session}&playing=${playing ? 1 : 0}&scale=${scale}&seq=${seq}` +
        (t === undefined ? '' : `&t=${t.toFixed(4)}`),
      '',
    ),
  stream: (session, w, h) => new EventSource(`/api/stream?session=${session}&w=${w}&h=${h}`),
  // The preview frame at time t: {ok, image: ImageData, time, alive} or {ok: false, error}.
  async frame(path, text, t, w, h) {
    const url = `/api/frame?path=${encodeURIComponent(path)}&t=${t.toFixed(4)}&w=${w}&h=${h}`;
    try {
      const res = await fetch(url, { method: 'POST', body: text });
      if (!res.ok) {
        const body = await res.json().catch(() => ({ error: { message: `HTTP ${res.status}` } }));
        return { ok: false, error: body.error };
      }
      const width = Number(res.headers.get('X-Mote-Width'));
      const height = Number(res.headers.get('X-Mote-Height'));
      const bytes = new Uint8ClampedArray(await res.arrayBuffer());
      if (bytes.length !== width * height * 4) return { ok: false, error: { message: 'a frame of the wrong size' } };
      return {
        ok: true,
        image: new ImageData(bytes, width, height),
        time: Number(res.headers.get('X-Mote-Time')),
        alive: Number(res.headers.get('X-Mote-Alive')),
      };
    } catch (e) {
      return { ok: false, error: { message: `the server cannot be reached: ${e.message}` } };
    }
  },
};
