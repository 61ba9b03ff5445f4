"""serve's routes, one module per job: the check endpoints, health and metrics, the API's documentation.
Each route reads the service and settings from `request.app.state`, set once by the factory."""
