// The embedded database's thread starts here (decision 1005): a CommonJS entry file, so tsx's
// require hook, which a thread started from a file has, compiles the TypeScript it loads. An
// ES module entry, or code evaluated in place, is resolved before the thread's --import hooks
// exist (Node 20) and cannot load TypeScript.
require('./pglite-thread.ts');
