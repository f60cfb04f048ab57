__builtin_expect(e,
#)
)