// The only module that touches the WebSocket: one socket for this seat, hello with the token,
// reconnect with a growing pause; after a reconnect the server sends the full view again.
export class Connection {
  constructor({ table, seat, token, onMessage, onStatus, onRefused, onReplaced, hello = () => ({}) }) {
    this.table = table;
    this.hello = hello; // more fields for each hello (the pace the person chose)
    this.seat = seat;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onRefused = onRefused;
    this.onReplaced = onReplaced;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.queue = [];
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.table)}/${this.seat}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ ...this.hello(), t: "hello", token: this.token }));
      this.retry = 0;
      this.onStatus("open");
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (event.code === 4401 || event.code === 4404) {
        this.closed = true;
        this.onRefused(event.code);
        return;
      }
      if (event.code === 4409) {
        // The same seat connected from another tab or device: that one plays now.
        this.closed = true;
        this.onStatus("open"); // nothing to show in the connection banner
        this.onReplaced();
        return;
      }
      this.onStatus("reconnecting");
      const pause = Math.min(5000, 500 * 2 ** this.retry++);
      setTimeout(() => {
        if (!this.closed) this.open();
      }, pause);
    });
  }

  /** Send one intent; false if the socket is not open (the page shows it is reconnecting). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
