"""Real agents of each framework with scripted models (their own model interfaces, no network): each
calls the tool `send_email(to, subject)` once, which needs a person's approval, then says it is done.
`SENT` records every call that ran, so a test sees the arguments it ran with, and how many times."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

FIRST_ARGUMENTS = {"to": "bob@example.com", "subject": "Quarterly report"}


@dataclass
class Outbox:
    sent: list[dict[str, Any]] = field(default_factory=list)

    def send_email(self, to: str, subject: str) -> str:
        self.sent.append({"to": to, "subject": subject})
        return f"sent to {to}"


def langgraph_agent(outbox: Outbox, *, interrupt_mode: str = "batched", checkpointer: Any = None) -> Any:
    """LangChain's create_agent with HumanInTheLoopMiddleware on send_email and InMemorySaver."""
    from langchain.agents import create_agent
    from langchain.agents.middleware import HumanInTheLoopMiddleware
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver

    class ScriptedChatModel(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

    def script() -> Iterator[AIMessage]:
        call = {"name": "send_email", "args": dict(FIRST_ARGUMENTS), "id": "call-1", "type": "tool_call"}
        yield AIMessage(content="", tool_calls=[call])
        while True:
            yield AIMessage(content="done")

    @tool
    def send_email(to: str, subject: str) -> str:
        """Send an e-mail."""
        return outbox.send_email(to, subject)

    middleware = HumanInTheLoopMiddleware(interrupt_on={"send_email": True}, interrupt_mode=interrupt_mode)  # type: ignore[arg-type]
    return create_agent(
        ScriptedChatModel(messages=script()),
        tools=[send_email],
        middleware=[middleware],
        checkpointer=checkpointer or InMemorySaver(),
    )


def openai_agent(outbox: Outbox) -> Any:
    """An openai-agents Agent on a scripted Model (the SDK's own interface): it calls send_email
    (needs_approval) until it has the tool's output, then answers "done". Tracing off: no network."""
    from agents import Agent, function_tool, set_tracing_disabled

    set_tracing_disabled(True)

    @function_tool(needs_approval=True)
    def send_email(to: str, subject: str) -> str:
        """Send an e-mail."""
        return outbox.send_email(to, subject)

    instructions = "Mail what you are asked to."
    return Agent(name="mailer", instructions=instructions, tools=[send_email], model=scripted_openai_model())


def scripted_openai_model() -> Any:
    """The SDK's Model, scripted: send_email's call, then "done" once the call's output is in the input."""
    import json

    from agents import Model, ModelResponse, Usage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    class ScriptedModel(Model):
        async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> Any:
            answered = any(
                isinstance(item, dict) and item.get("type") == "function_call_output" for item in list(input)
            )
            if answered:
                text = ResponseOutputText(type="output_text", text="done", annotations=[])
                output: Any = ResponseOutputMessage(
                    id="msg-1", type="message", role="assistant", status="completed", content=[text]
                )
            else:
                output = ResponseFunctionToolCall(
                    type="function_call",
                    id="fc-1",
                    call_id="call-1",
                    name="send_email",
                    arguments=json.dumps(FIRST_ARGUMENTS),
                    status="completed",
                )
            return ModelResponse(output=[output], usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError("the scripted model does not stream")

    return ScriptedModel()


def pydantic_ai_agent(outbox: Outbox) -> Any:
    """A pydantic-ai Agent on a FunctionModel: it calls send_email (requires_approval) until the tool's
    return (or its denial) is in the history, then answers "done"; output DeferredToolRequests or str."""
    from pydantic_ai import Agent, DeferredToolRequests
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returned = any(isinstance(part, ToolReturnPart) for message in messages for part in message.parts)
        if returned:
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart("send_email", dict(FIRST_ARGUMENTS), tool_call_id="call-1")])

    agent = Agent(FunctionModel(script), output_type=[str, DeferredToolRequests])  # type: ignore[arg-type]

    @agent.tool_plain(requires_approval=True)
    def send_email(to: str, subject: str) -> str:
        """Send an e-mail."""
        return outbox.send_email(to, subject)

    return agent
