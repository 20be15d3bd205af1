// Preloaded into Node peers that listen on all interfaces (node -r): jig's
// tests bind every server they start to 127.0.0.1.
const net = require('net');
const orig = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    const port = Number(args[0]);
    const rest = args.slice(1).filter(a => typeof a === 'function');
    return orig.call(this, port, '127.0.0.1', ...rest);
  }
  if (args[0] && typeof args[0] === 'object' && !Array.isArray(args[0])) {
    args[0] = Object.assign({}, args[0], { host: '127.0.0.1' });
  }
  return orig.apply(this, args);
};
