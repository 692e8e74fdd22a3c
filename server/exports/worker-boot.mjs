// A worker thread's first module: TypeScript through tsx's loader (registered in this thread, as
// every thread has its own), then the worker named in workerData. Plain JavaScript on purpose: it
// runs before anything can load TypeScript.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
