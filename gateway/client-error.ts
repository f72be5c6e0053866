// The answers Node's HTTP server gives by itself, before Express sees a request (a request line or headers too large,
// a malformed request, a timeout, an Expect it cannot meet), carry our error body too.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ApiError, errors } from '../lib/errors.ts';

function forParserError(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return errors.tooLarge('The request line (URL) or the headers are too large', 431);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errors.unreadable('The request was not received in time', 408);
    default:
      return errors.unreadable('The request is not valid HTTP');
  }
}

/** The server's clientError listener: Node's own choice of status, with our body and the connection closed. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const e = forParserError(err.code);
  const body = JSON.stringify(e.toBody());
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** An Expect header other than 100-continue: 417, as Node answers it, with our body. */
function answerExpectation(_req: IncomingMessage, res: ServerResponse): void {
  const e = errors.unreadable('Only "Expect: 100-continue" is supported', 417, 'expect');
  const body = JSON.stringify(e.toBody());
  res.writeHead(e.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
}

export function answerNodeRefusals(server: Server): void {
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectation);
}
