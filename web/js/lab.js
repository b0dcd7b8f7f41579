// SPDX-License-Identifier: MIT
// The playground's wasm (web/wasm/lab.c with the library's sources): instantiation and the thin
// calls the sections use. Numbers go in through lab_in() and come back through lab_out().
import { labWasmBase64 } from './lab-wasm.js';

function decodeBase64(text) {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

// The library calls no WASI function on the page's paths; these answer if one ever is.
const wasi = {
  fd_write: () => 52, fd_close: () => 52, fd_seek: () => 52,
  proc_exit: (code) => { throw new Error(`wasm exited with ${code}`); },
};

export async function loadLab() {
  const { instance } = await WebAssembly.instantiate(decodeBase64(labWasmBase64), { wasi_snapshot_preview1: wasi });
  const e = instance.exports;
  if (e._initialize) e._initialize();
  const view = () => new Float32Array(e.memory.buffer);
  const inAt = e.lab_in() >> 2;
  const outAt = e.lab_out() >> 2;
  const resultString = (r) => {
    const bytes = new Uint8Array(e.memory.buffer);
    let p = e.lab_result_string(r), s = '';
    while (bytes[p]) s += String.fromCharCode(bytes[p++]);
    return s;
  };
  return {
    exports: e,
    input(values) { view().set(values, inAt); },
    output(count, offset = 0) { return view().slice(outAt + offset, outAt + offset + count); },
    check(r, what) {
      if (r !== 0) throw new Error(`${what}: ${resultString(Math.abs(r))}`);
      return r;
    },
    resultString,
    readString(pointer, length) {
      return new TextDecoder().decode(new Uint8Array(e.memory.buffer, pointer, length));
    },
  };
}
