"""The baseline: a one-route FastAPI app returning a dict, served by plain uvicorn."""

from fastapi import FastAPI

app = FastAPI()


@app.get("/lookup")
def lookup() -> dict:
    return {"id": "gpt-4-0613", "provider": "openai", "status": "retired", "retirement_date": "2026-10-23"}
