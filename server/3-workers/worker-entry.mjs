// A worker thread's first module: TypeScript through tsx's loader (registered in this thread, as
// every thread has its own), then the named task's module, loaded once per thread. Plain
// JavaScript on purpose: it runs before anything can load TypeScript. piscina calls the default
// export once per task (./pool.ts).
import { register } from "tsx/esm/api";

register();

const MODULES = {
  png: "./png-task.ts",
  embed: "../8-embeds/answers-task.ts",
  comparison: "./comparison-task.ts",
  export: "../3-exports/export-worker.ts",
  reading: "../7-procedures/reading-task.ts",
};

const loaded = new Map();

export default async function run({ task, input }) {
  const file = MODULES[task];
  if (!file) throw new Error(`no worker task named ${task}`);
  let module = loaded.get(task);
  if (!module) {
    module = await import(new URL(file, import.meta.url).href);
    loaded.set(task, module);
  }
  return module.default(input);
}
