// Loaded with `node --import` into the servers bench/api.ts starts: their stdin is a pipe from the bench process,
// so when that process goes away, even killed outright, the pipe closes and the server is told to stop (SIGTERM:
// the product's own shutdown), then made to.
process.stdin.on('end', () => {
  process.kill(process.pid, 'SIGTERM');
  setTimeout(() => process.exit(1), 15_000).unref();
});
process.stdin.on('error', () => undefined);
process.stdin.resume();
