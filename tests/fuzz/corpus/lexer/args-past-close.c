((
#if
))
#else
)