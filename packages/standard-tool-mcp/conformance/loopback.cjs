// Preloaded into the conformance suite's Node process (NODE_OPTIONS="--require <this file>"):
// every server that listens without naming a host (the suite's mock servers call
// `listen(0)`, which binds all interfaces) listens on 127.0.0.1 instead. The suite reads
// `server.address().port` right after `listen(0)`, so the lookup of the literal address
// answers at once and the server is bound before `listen` returns, as it is without a host.
"use strict";
const dns = require("dns");
const net = require("net");

const LOOPBACK = "127.0.0.1";
const lookup = dns.lookup;
dns.lookup = function (host, options, callback) {
  if (host === LOOPBACK) {
    const done = typeof options === "function" ? options : callback;
    const all = typeof options === "object" && options !== null && options.all;
    return all ? done(null, [{ address: LOOPBACK, family: 4 }]) : done(null, LOOPBACK, 4);
  }
  return lookup.apply(this, arguments);
};

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first] = args;
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    if (typeof args[1] !== "string") args.splice(1, 0, LOOPBACK);
  } else if (first && typeof first === "object" && !("path" in first) && !first.host) {
    args[0] = { ...first, host: LOOPBACK };
  }
  return listen.apply(this, args);
};
