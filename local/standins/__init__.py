"""Stand-ins for what moto lacks or a third party serves: the HTTP API gateway and its JWT authorizer,
a JWT issuer, the pumps that fire schedules and execution events, the notification inbox, fault
injection, Lambda's SQS poller, and the channels' SES inbox and Slack Web API."""
