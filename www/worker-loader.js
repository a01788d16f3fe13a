// Starts the decoding worker: loads the wasm-bindgen glue Trunk built for the `worker` binary
// (worker.js / worker_bg.wasm, never hashed) relative to this file, so any sub-path works.
// The object form of the init call avoids wasm-bindgen's "deprecated parameters" warning.
importScripts('./worker.js');
wasm_bindgen({ module_or_path: './worker_bg.wasm' });
