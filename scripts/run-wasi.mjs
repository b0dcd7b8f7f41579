// Runs a wasm32-wasi program under Node's WASI: node scripts/run-wasi.mjs prog.wasm [args...]
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { argv } from 'node:process';

const wasi = new WASI({ version: 'preview1', args: argv.slice(2), env: {}, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(argv[2]));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
