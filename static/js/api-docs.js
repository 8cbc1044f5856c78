// /api/docs/: Swagger UI over the portal's OpenAPI schema. Everything comes from this site: the bundle from
// static/vendor/swagger-ui/, the schema URL and CSRF token from the page's #swagger-ui element.
(function () {
  "use strict";

  const root = document.getElementById("swagger-ui");
  const csrfToken = root.dataset.csrfToken;

  // Swagger UI's own dark theme (html.dark-mode), following the system's colour scheme as the portal's pages do.
  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  function followScheme() {
    document.documentElement.classList.toggle("dark-mode", dark.matches);
  }
  followScheme();
  dark.addEventListener("change", followScheme);

  window.ui = SwaggerUIBundle({
    url: root.dataset.schemaUrl,
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    // Deep links would put a link inside each operation's toggle button: two nested controls, which keyboards
    // and screen readers cannot tell apart (axe-core: nested-interactive).
    deepLinking: false,
    persistAuthorization: true,
    // The default asks an outside validator about the schema's URL; this page talks to this site only.
    validatorUrl: null,
    requestInterceptor: function (request) {
      // A signed-in session may try operations out too; Django then wants the CSRF token on unsafe methods.
      if (request.method && request.method !== "GET" && request.method !== "HEAD") {
        request.headers["X-CSRFToken"] = csrfToken;
      }
      return request;
    },
  });
})();
