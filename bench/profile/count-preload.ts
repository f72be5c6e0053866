// Loaded into each stack process with `--import` by bench/profile/drive.ts (never by the service itself): counts
// the MongoDB commands (by command and collection), Redis commands (by name; a BullMQ script is one evalsha) and
// outgoing gRPC calls (by method) the process sends, and writes the running totals to
// $ROUNDTRIP_COUNT_DIR/<pid>.json every 200 ms (when they changed), with the milliseconds each kind of MongoDB
// command took in all (`ms mongo ...`), so the driver can diff them around a phase.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';

const dir = process.env.ROUNDTRIP_COUNT_DIR;
const counts: Record<string, number> = {};
const bump = (key: string, by = 1) => {
  counts[key] = (counts[key] ?? 0) + by;
  changed = true;
};
let changed = false;

const connect = MongoClient.prototype.connect;
MongoClient.prototype.connect = function patchedConnect(this: MongoClient) {
  // The driver's setter (not in its types) turns command monitoring on for a client built without it.
  Reflect.set(this, 'monitorCommands', true);
  const names = new Map<number, string>();
  this.on('commandStarted', (e) => {
    const target = e.command[e.commandName];
    const name = `mongo ${e.commandName}${typeof target === 'string' ? ` ${target}` : ''}`;
    names.set(e.requestId, name);
    bump(name);
  });
  // The time each command took, as the driver saw it (the server's time and the wait for a pooled connection).
  const done = (e: { requestId: number; duration: number }) => {
    const name = names.get(e.requestId);
    names.delete(e.requestId);
    if (name) bump(`ms ${name}`, e.duration);
  };
  this.on('commandSucceeded', done);
  this.on('commandFailed', done);
  return connect.call(this);
} as typeof connect;

const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function patchedSend(this: Redis, command, stream) {
  bump(`redis ${String(command.name).toLowerCase()}`);
  return sendCommand.call(this, command, stream);
} as typeof sendCommand;

// The generated clients capture Client.prototype.makeUnaryRequest when grpc-js loads, so the calls are counted where
// they are served: each method of a service added to a Server is wrapped.
const addService = grpc.Server.prototype.addService;
grpc.Server.prototype.addService = function patchedAddService(this: grpc.Server, service, implementation) {
  const counted = Object.fromEntries(
    Object.entries(implementation).map(([name, handler]) => [
      name,
      typeof handler === 'function'
        ? (...args: unknown[]) => {
            bump(`grpc served ${name}`);
            return (handler as (...a: unknown[]) => unknown)(...args);
          }
        : handler,
    ]),
  );
  return addService.call(this, service, counted as typeof implementation);
} as typeof addService;

if (dir) {
  const file = join(dir, `${process.pid}.json`);
  const role = process.argv.slice(1).join(' ');
  const flush = () => {
    if (!changed) return;
    changed = false;
    writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, role, counts }));
    renameSync(`${file}.tmp`, file);
  };
  setInterval(flush, 200).unref();
  process.on('exit', flush);
}
