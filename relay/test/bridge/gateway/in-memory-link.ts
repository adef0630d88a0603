// A connected pair of in-memory ends: the relay's SessionTransport and the test connector's link.
// Frames cross on the next turn of the event loop, in order, like a socket; closing either end closes
// both after the frames already sent have arrived. Lets protocol tests run without a network.
import type { Frame } from '@ledgerwire/shared';
import type { SessionTransport } from '../../../src/gateway/services/session-transport.js';
import type { ConnectorLink } from '../../helpers/test-connector.js';

type End = {
  frameHandlers: ((frame: Frame) => void)[];
  closeHandlers: ((code: number, reason: string) => void)[];
};

export function createInMemoryLink(): { relay: SessionTransport; connector: ConnectorLink } {
  const relayEnd: End = { frameHandlers: [], closeHandlers: [] };
  const connectorEnd: End = { frameHandlers: [], closeHandlers: [] };
  let open = true;

  const deliver = (to: End, text: string) => {
    if (!open) return;
    setImmediate(() => {
      for (const handler of to.frameHandlers) handler(text);
    });
  };
  const closeBoth = (code: number, reason: string) => {
    if (!open) return;
    open = false;
    setImmediate(() => {
      for (const handler of [...relayEnd.closeHandlers, ...connectorEnd.closeHandlers]) handler(code, reason);
    });
  };

  const relay: SessionTransport = {
    send: (text) => deliver(connectorEnd, text),
    close: (code, reason) => closeBoth(code, reason),
    terminate: () => closeBoth(1006, ''),
    onFrame: (handler) => relayEnd.frameHandlers.push(handler),
    onClose: (handler) => relayEnd.closeHandlers.push(() => handler()),
  };
  const connector: ConnectorLink = {
    send: (text) => deliver(relayEnd, text),
    close: (code) => closeBoth(code ?? 1000, ''),
    terminate: () => closeBoth(1006, ''),
    onFrame: (handler) => connectorEnd.frameHandlers.push(handler),
    onClose: (handler) => connectorEnd.closeHandlers.push(handler),
  };
  return { relay, connector };
}
