// Starts a decoding worker of the shared-memory build (scripts/build-shared.sh): the page's own
// wasm-bindgen module (shared/flamedrop.js) runs here on the page's memory, so the trace this
// worker decodes is already where the page reads it (src/wire/handover.rs). The page sends the
// compiled module and its shared memory as the first message; the worker then says it is ready
// (`worker_start`), decodes one job, and asks to be closed (`flamedropWorkerDone`) once no wasm
// code of its own runs any more: its stack goes back to the shared allocator first.
import init, { worker_start } from './shared/flamedrop.js';

self.addEventListener(
  'message',
  async (event) => {
    const { module, memory } = event.data;
    const wasm = await init({ module_or_path: module, memory });
    self.flamedropWorkerDone = () =>
      setTimeout(() => {
        wasm.__wbindgen_thread_destroy();
        self.close();
      });
    worker_start();
  },
  { once: true },
);
