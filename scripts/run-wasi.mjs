// SPDX-License-Identifier: MIT
// Runs a wasm32-wasi program under Node's WASI: node scripts/run-wasi.mjs prog.wasm [args...]
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { argv } from 'node:process';

const wasi = new WASI({ version: 'preview1', args: argv.slice(2), env: {}, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(argv[2]));
// getImportObject() is Node >= 19.8 / 18.16; older releases take the preview1 namespace by hand.
const imports = typeof wasi.getImportObject === 'function' ? wasi.getImportObject()
                                                          : { wasi_snapshot_preview1: wasi.wasiImport };
const instance = await WebAssembly.instantiate(module, imports);
process.exitCode = wasi.start(instance);
