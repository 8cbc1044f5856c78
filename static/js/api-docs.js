// /api/docs/: Swagger UI over the portal's OpenAPI schema. Everything comes from this site: the bundle from
// static/vendor/swagger-ui/, the schema URL and CSRF token from the page's #swagger-ui element.
(function () {
  "use strict";

  const root = document.getElementById("swagger-ui");
  const csrfToken = root.dataset.csrfToken;

  window.ui = SwaggerUIBundle({
    url: root.dataset.schemaUrl,
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
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
