/**
 * What closing a queue does, for the server clients that hand it in (QueueOptions.closer_): stop
 * the loop's timers, and drop what is left with reason 'shutdown', except what the persistence
 * keeps for the next run; an event captured after that is dropped too. A page never closes its
 * queue (pagehide hands what is left to the beacon), so the script tags never import this.
 */
import type { QueueCloser } from './queue-types';

export const serverCloser: QueueCloser = {
  close_: (state, delivery, persistence) => {
    if (state.closed_) return;
    state.reportEvictions_();
    state.closed_ = true;
    delivery.stop_();
    const queued = state.inFlight_.concat(state.line_.clear()).map((entry) => entry.event);
    // The request still in flight answers into nothing: its events are reported below.
    state.inFlight_ = [];
    const left = persistence?.retain ? persistence.retain(queued) : queued;
    state.drop_(
      left,
      'shutdown',
      `${left.length} event(s) were still undelivered when the client shut down (deadline reached or server unreachable).`,
    );
    state.settleWaiters_(true);
  },
  late_: (state, event) =>
    state.drop_([event], 'shutdown', `event ${event.uuid} captured after shutdown() was not sent. Capture before shutting down.`),
};
