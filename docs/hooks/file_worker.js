// The site's search runs in a Web Worker, and a page opened from the disk (file://) may
// not start one. There, this stand-in runs the worker's script in a hidden frame of the
// page instead: the page and the script still talk only through "message" events, each
// delivered later, as a worker's are. Served over http(s), the real Worker is used.
(function () {
  "use strict";
  if (location.protocol !== "file:") {
    return;
  }

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.queued = [];
      this.ready = false;
      this.frame = document.createElement("iframe");
      this.frame.hidden = true;
      this.frame.title = "search";
      document.documentElement.appendChild(this.frame);
      // an empty frame shares the page's origin: its window is the script's global scope
      const scope = this.frame.contentWindow;
      this.scope = scope;
      scope.postMessage = (data) => setTimeout(() => this.deliver(data));
      const script = scope.document.createElement("script");
      script.src = new URL(url, document.baseURI).href;
      script.onload = () => {
        this.ready = true;
        this.queued.splice(0).forEach((data) => this.postMessage(data));
      };
      script.onerror = () => this.dispatchEvent(new Event("error"));
      scope.document.head.appendChild(script);
    }

    deliver(data) {
      const event = new MessageEvent("message", { data: data });
      if (typeof this.onmessage === "function") {
        this.onmessage(event);
      }
      this.dispatchEvent(event);
    }

    postMessage(data) {
      if (!this.ready) {
        this.queued.push(data);
        return;
      }
      const scope = this.scope;
      setTimeout(() => scope.dispatchEvent(new scope.MessageEvent("message", { data: data })));
    }

    terminate() {
      this.frame.remove();
    }
  }

  window.Worker = FrameWorker;
})();
