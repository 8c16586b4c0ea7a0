"""Creators for the stack's data and messaging resources: tables, topics, queues, secrets, keys and
log groups."""

from __future__ import annotations

import json
import secrets
import string
from typing import Any

from local.template.resources import Created, Creator, StackContext

_TABLE_FIELDS = (
    "AttributeDefinitions",
    "KeySchema",
    "BillingMode",
    "ProvisionedThroughput",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
    "StreamSpecification",
)


def create_table(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    dynamodb = context.clients("dynamodb")
    name = properties.get("TableName") or context.physical_name(logical_id, 255)
    arguments = {key: properties[key] for key in _TABLE_FIELDS if key in properties}
    if "StreamSpecification" in arguments:
        arguments["StreamSpecification"] = {**arguments["StreamSpecification"], "StreamEnabled": True}
    table = dynamodb.create_table(TableName=name, **arguments)["TableDescription"]
    ttl = properties.get("TimeToLiveSpecification")
    if ttl and ttl.get("Enabled"):
        dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
    attributes = {"Arn": table["TableArn"]}
    if "LatestStreamArn" in table:
        attributes["StreamArn"] = table["LatestStreamArn"]
    return Created(ref=name, attributes=attributes)


def create_topic(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    name = properties.get("TopicName") or context.physical_name(logical_id, 256)
    topic_attributes = {
        key: str(properties[key]) for key in ("DisplayName", "FifoTopic") if key in properties
    }
    arn = context.clients("sns").create_topic(Name=name, Attributes=topic_attributes)["TopicArn"]
    return Created(ref=arn, attributes={"TopicArn": arn, "TopicName": name})


def create_topic_policy(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    """Who may subscribe (the channel queues) and how, set on each topic as its Policy attribute."""
    policy = json.dumps(properties["PolicyDocument"])
    for arn in properties["Topics"]:
        sns = context.clients("sns")
        sns.set_topic_attributes(TopicArn=arn, AttributeName="Policy", AttributeValue=policy)
    return Created(ref=context.physical_name(logical_id))


def create_subscription(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    arguments = {key: properties[key] for key in ("TopicArn", "Protocol", "Endpoint")}
    extra = {"FilterPolicy", "RawMessageDelivery", "FilterPolicyScope"} & properties.keys()
    attributes = {
        key: value if isinstance(value := properties[key], str) else json.dumps(value) for key in extra
    }
    arn = context.clients("sns").subscribe(**arguments, Attributes=attributes, ReturnSubscriptionArn=True)[
        "SubscriptionArn"
    ]
    return Created(ref=arn)


def create_queue(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    sqs = context.clients("sqs")
    name = properties.get("QueueName") or context.physical_name(logical_id, 80)
    attributes = {
        key: value if isinstance(value, str) else json.dumps(value)
        for key, value in properties.items()
        if key not in {"QueueName", "Tags"}
    }
    url = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]
    return Created(ref=url, attributes={"Arn": arn["QueueArn"], "QueueName": name, "QueueUrl": url})


def create_queue_policy(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    """Who may send to the queues (the topic, for the channel queues), set on each of them."""
    policy = json.dumps(properties["PolicyDocument"])
    for url in properties["Queues"]:
        context.clients("sqs").set_queue_attributes(QueueUrl=url, Attributes={"Policy": policy})
    return Created(ref=context.physical_name(logical_id))


def create_secret(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    name = properties.get("Name") or context.physical_name(logical_id, 512)
    value = properties.get("SecretString")
    if value is None:
        value = generated_secret_string(properties.get("GenerateSecretString", {}))
    arn = context.clients("secretsmanager").create_secret(Name=name, SecretString=value)["ARN"]
    return Created(ref=arn, attributes={"Id": arn})


def create_ssm_parameter(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    name = properties.get("Name") or f"/{context.stack_name}/{logical_id}"
    value_type = properties.get("Type", "String")
    context.clients("ssm").put_parameter(Name=name, Value=str(properties["Value"]), Type=value_type)
    return Created(ref=name, attributes={"Type": value_type, "Value": str(properties["Value"])})


def create_key(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    """A KMS key with its key policy and spec (nothing local encrypts with the symmetric one; the
    ledger's signing key signs, its material kept across restarts: local.patches.kept_signing_keys)."""
    shape = {name: str(properties[name]) for name in ("KeySpec", "KeyUsage") if name in properties}
    key = context.clients("kms").create_key(
        Description=str(properties.get("Description", "")),
        Policy=json.dumps(properties["KeyPolicy"]),
        **shape,
    )["KeyMetadata"]
    return Created(ref=key["KeyId"], attributes={"Arn": key["Arn"], "KeyId": key["KeyId"]})


def create_log_group(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    """A log group with its retention; its Arn as CloudFormation gives it (ending in `:*`)."""
    logs = context.clients("logs")
    name = properties.get("LogGroupName") or context.physical_name(logical_id, 512)
    logs.create_log_group(logGroupName=name)
    if "RetentionInDays" in properties:
        logs.put_retention_policy(logGroupName=name, retentionInDays=int(properties["RetentionInDays"]))
    arn = f"arn:aws:logs:{context.region}:{context.account_id}:log-group:{name}:*"
    return Created(ref=name, attributes={"Arn": arn})


def generated_secret_string(spec: dict[str, Any]) -> str:
    """What Secrets Manager's GenerateSecretString would make, from the same options."""
    excluded = set(spec.get("ExcludeCharacters", ""))
    alphabet = "" if spec.get("ExcludeLowercase") else string.ascii_lowercase
    alphabet += "" if spec.get("ExcludeUppercase") else string.ascii_uppercase
    alphabet += "" if spec.get("ExcludeNumbers") else string.digits
    alphabet += "" if spec.get("ExcludePunctuation") else "!#$%&()*+,-./:;<=>?@[]^_`{|}~"
    alphabet += " " if spec.get("IncludeSpace") else ""
    pool = [character for character in alphabet if character not in excluded]
    length = int(spec.get("PasswordLength", 32))
    generated = "".join(secrets.choice(pool) for _ in range(length))
    template = spec.get("SecretStringTemplate")
    if template is None:
        return generated
    document = json.loads(template)
    document[spec["GenerateStringKey"]] = generated
    return json.dumps(document)


DATA_CREATORS: dict[str, Creator] = {
    "AWS::DynamoDB::Table": create_table,
    "AWS::SNS::Topic": create_topic,
    "AWS::SNS::Subscription": create_subscription,
    "AWS::SNS::TopicPolicy": create_topic_policy,
    "AWS::SQS::Queue": create_queue,
    "AWS::SQS::QueuePolicy": create_queue_policy,
    "AWS::SecretsManager::Secret": create_secret,
    "AWS::SSM::Parameter": create_ssm_parameter,
    "AWS::KMS::Key": create_key,
    "AWS::Logs::LogGroup": create_log_group,
}
